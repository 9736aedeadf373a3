package org.oooengine.hive.server;

import java.nio.charset.StandardCharsets;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;

/**
 * The server side of SASL PLAIN (RFC 4616), which the JDK does not ship. One message from the
 * client, {@code [authzid] NUL authcid NUL password}, decides the exchange; there is no
 * challenge and no security layer, so wrap/unwrap are unsupported.
 */
final class PlainSaslServer implements SaslServer {
    static final String MECHANISM = "PLAIN";

    private final CallbackHandler handler;
    private String authorizedUser;
    private boolean done;

    PlainSaslServer(CallbackHandler handler) {
        this.handler = handler;
    }

    @Override
    public String getMechanismName() {
        return MECHANISM;
    }

    @Override
    public byte[] evaluateResponse(byte[] response) throws SaslException {
        if (done) {
            throw new SaslException("PLAIN authentication has already completed");
        }
        done = true;
        String[] parts = split(response);
        String authzid = parts[0];
        String user = parts[1];
        String password = parts[2];
        if (user.isEmpty() || password.isEmpty()) {
            throw new SaslException("PLAIN authentication failed: user and password are required");
        }
        AuthorizeCallback authorize = new AuthorizeCallback(user, authzid.isEmpty() ? user : authzid);
        Callback[] callbacks = {new NameCallback("user", user), new PasswordCallback("password", false), authorize};
        ((PasswordCallback) callbacks[1]).setPassword(password.toCharArray());
        try {
            handler.handle(callbacks);
        } catch (SaslException e) {
            throw e; // the handler's own refusal (e.g. too many failed logins) says why
        } catch (Exception e) {
            throw new SaslException("PLAIN authentication failed for user '" + user + "'", e);
        } finally {
            ((PasswordCallback) callbacks[1]).clearPassword();
        }
        if (!authorize.isAuthorized()) {
            throw new SaslException("PLAIN authentication failed for user '" + user + "'");
        }
        authorizedUser = authorize.getAuthorizedID() != null ? authorize.getAuthorizedID() : user;
        return null;
    }

    /** Splits the PLAIN message into exactly three NUL-separated UTF-8 fields. */
    private static String[] split(byte[] message) throws SaslException {
        if (message == null) {
            throw new SaslException("PLAIN authentication failed: empty message");
        }
        String[] parts = new String(message, StandardCharsets.UTF_8).split("\0", -1);
        if (parts.length != 3) {
            throw new SaslException("PLAIN authentication failed: malformed message");
        }
        return parts;
    }

    @Override
    public boolean isComplete() {
        return authorizedUser != null;
    }

    @Override
    public String getAuthorizationID() {
        if (!isComplete()) {
            throw new IllegalStateException("PLAIN authentication has not completed");
        }
        return authorizedUser;
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) throws SaslException {
        throw new IllegalStateException("PLAIN has no security layer");
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) throws SaslException {
        throw new IllegalStateException("PLAIN has no security layer");
    }

    @Override
    public Object getNegotiatedProperty(String propName) {
        if (!isComplete()) {
            throw new IllegalStateException("PLAIN authentication has not completed");
        }
        return null;
    }

    @Override
    public void dispose() {
        authorizedUser = null;
    }
}
