package org.oooengine.hive.server;

import java.security.Provider;
import java.security.Security;
import java.util.Map;
import javax.security.auth.callback.CallbackHandler;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;

/**
 * Makes {@link PlainSaslServer} reachable through {@link Sasl#createSaslServer}, which is how
 * Thrift's TSaslServerTransport creates the server for the mechanism a client asks for.
 */
final class PlainSaslServerProvider extends Provider {
    private static final String NAME = "OoOEngineSaslPlain";

    private PlainSaslServerProvider() {
        super(NAME, "1.0", "SASL PLAIN server mechanism for the HiveServer2 endpoint");
        // A Service with its own newInstance avoids reflective class loading by name.
        putService(new Service(this, "SaslServerFactory", PlainSaslServer.MECHANISM, Factory.class.getName(), null, null) {
            @Override
            public Object newInstance(Object constructorParameter) {
                return new Factory();
            }
        });
    }

    /** Registers the provider once per JVM; later calls are no-ops. */
    static synchronized void install() {
        if (Security.getProvider(NAME) == null) {
            Security.addProvider(new PlainSaslServerProvider());
        }
    }

    static final class Factory implements SaslServerFactory {
        @Override
        public SaslServer createSaslServer(String mechanism, String protocol, String serverName, Map<String, ?> props,
                                           CallbackHandler cbh) {
            if (!PlainSaslServer.MECHANISM.equals(mechanism) || cbh == null || refusesPlaintext(props)) {
                return null;
            }
            return new PlainSaslServer(cbh);
        }

        @Override
        public String[] getMechanismNames(Map<String, ?> props) {
            return refusesPlaintext(props) ? new String[0] : new String[] {PlainSaslServer.MECHANISM};
        }

        private static boolean refusesPlaintext(Map<String, ?> props) {
            return props != null && "true".equals(props.get(Sasl.POLICY_NOPLAINTEXT));
        }
    }
}
