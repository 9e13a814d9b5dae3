package convcert.suite.junit;

import convcert.suite.runner.SuiteRun;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands ConformanceTests its SuiteRun: the one `convcert certify` put in the launcher session's store
 * (namespace SuiteRun.NAMESPACE, key SuiteRun.class), or under Surefire one made from system
 * properties (SystemPropertiesRun) and kept there for the session, which closes it at its end. No
 * static state.
 */
public final class SuiteRunResolver implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SuiteRun.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION,
                ExtensionContext.Namespace.create(SuiteRun.NAMESPACE))
                .getOrComputeIfAbsent(SuiteRun.class, k -> SystemPropertiesRun.create(), SuiteRun.class);
    }
}
