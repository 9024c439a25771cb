/**
 * How the Jaeger binary is built from its Go module (go-tool.build.mts does the building).
 *
 * Out: $LONGHAUL_HOME/bin/jaeger and bin/jaeger.version; the throwaway module
 *      that pins the version lives in $LONGHAUL_HOME/build/jaeger.
 * A cold build is several minutes on two cores; changing JAEGER_MODULE_VERSION rebuilds.
 */
import type { GoTool } from './go-tool.build.mts';

/** Jaeger's Go module tags the v2 binary (cmd/jaeger) with the v1 line: v1.76.0 is Jaeger v2.13.0. */
export const JAEGER_MODULE_VERSION = 'v1.76.0';
const JAEGER_RELEASE = 'v2.13.0';

export const jaegerTool: GoTool = {
  component: 'jaeger',
  title: 'Jaeger',
  binaryName: 'jaeger',
  moduleName: 'jaeger',
  packagePath: 'github.com/jaegertracing/jaeger/cmd/jaeger',
  moduleVersion: JAEGER_MODULE_VERSION,
  ldflags: `-X github.com/jaegertracing/jaeger/internal/version.latestVersion=${JAEGER_RELEASE}`,
  coldBuild: 'minutes',
};
