package org.oooengine.hive.server;

import java.util.Arrays;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;

/**
 * Decides PLAIN logins for {@link PlainSaslServer} through the standard JAAS callbacks, so the
 * SASL mechanism stays independent of where passwords come from.
 */
final class PlainCredentialsHandler implements CallbackHandler {
    /** Checks one user's password. */
    @FunctionalInterface
    interface Authenticator {
        boolean authenticate(String user, String password);

        /** For endpoints that allow unauthenticated clients: any credentials pass. */
        Authenticator ANYONE = (user, password) -> true;
    }

    private final Authenticator authenticator;

    PlainCredentialsHandler(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
        String user = null;
        char[] password = null;
        AuthorizeCallback authorize = null;
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                user = name.getDefaultName();
            } else if (callback instanceof PasswordCallback pass) {
                password = pass.getPassword();
            } else if (callback instanceof AuthorizeCallback ac) {
                authorize = ac;
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
        if (authorize == null) {
            return;
        }
        boolean ok = user != null && password != null && authenticator.authenticate(user, new String(password));
        // Acting as another user (authzid) is not something we grant.
        authorize.setAuthorized(ok && authorize.getAuthenticationID().equals(authorize.getAuthorizationID()));
        if (ok) {
            authorize.setAuthorizedID(authorize.getAuthorizationID());
        }
        if (password != null) {
            Arrays.fill(password, '\0');
        }
    }
}
