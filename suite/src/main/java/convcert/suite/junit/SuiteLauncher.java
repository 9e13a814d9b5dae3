package convcert.suite.junit;

import convcert.common.UsageException;
import convcert.suite.runner.SuiteRun;
import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.junitplatform.AllureJunitPlatform;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Runs a SuiteRun's cases as ConformanceTests on the JUnit Platform Launcher, with an Allure lifecycle
 * and listener of the run's own (the auto-registered listener keeps the results folder of the first
 * lifecycle in the JVM). The run reaches the engine through the launcher session's store.
 */
public final class SuiteLauncher {

    private SuiteLauncher() {
    }

    /** The lifecycle writing Allure results to folder, made the current one. */
    public static AllureLifecycle allure(Path folder) {
        AllureLifecycle allure = new AllureLifecycle(new FileSystemResultsWriter(folder));
        Allure.setLifecycle(allure);
        return allure;
    }

    /** Runs every planned case; a suite that fails before any case runs is a usage error, its failures on err. */
    public static void execute(SuiteRun run, AllureLifecycle allure, PrintWriter err) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(ConformanceTests.class)).build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        try (LauncherSession session = LauncherFactory.openSession(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build())) {
            session.getStore().put(Namespace.create(SuiteRun.NAMESPACE), SuiteRun.class, run); // SuiteRunResolver
            session.getLauncher().execute(request, summary, new AllureJunitPlatform(allure));
        }
        if (summary.getSummary().getTotalFailureCount() > 0 && run.results().isEmpty() && !run.planned().isEmpty()) {
            summary.getSummary().printFailuresTo(err, 20); // discovery failed before any case ran
            throw new UsageException("the suite could not start; see above");
        }
    }
}
