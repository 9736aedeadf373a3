package org.oooengine.hive.server;

import java.io.IOException;
import java.util.Arrays;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;

/**
 * Decides PLAIN logins for {@link PlainSaslServer} through the standard JAAS callbacks, so the
 * SASL mechanism stays independent of where passwords come from. One per connection: the password
 * is checked when the {@link LoginThrottle} gives the login its turn, by the client's address,
 * the user and the endpoint's rate.
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
    private final LoginThrottle throttle;
    private final String address;

    /** {@code address}: the client's IP address, which the throttle counts failures by. */
    PlainCredentialsHandler(Authenticator authenticator, LoginThrottle throttle, String address) {
        this.authenticator = authenticator;
        this.throttle = throttle;
        this.address = address;
    }

    @Override
    public void handle(Callback[] callbacks) throws IOException, UnsupportedCallbackException {
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
        try {
            String name = user;
            char[] secret = password;
            boolean ok = authenticator == Authenticator.ANYONE
                    ? name != null && secret != null // no password to check: nothing to slow down
                    : throttle.check(String.valueOf(name), address,
                            () -> name != null && secret != null && authenticator.authenticate(name, new String(secret)));
            // Acting as another user (authzid) is not something we grant.
            authorize.setAuthorized(ok && authorize.getAuthenticationID().equals(authorize.getAuthorizationID()));
            if (ok) {
                authorize.setAuthorizedID(authorize.getAuthorizationID());
            }
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
            }
        }
    }
}
