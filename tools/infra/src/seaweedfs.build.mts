/**
 * How SeaweedFS's `weed` binary is built from its Go module (go-tool.build.mts does the building).
 *
 * Out: $LONGHAUL_HOME/bin/weed and bin/weed.version; the throwaway module that
 *      pins the version lives in $LONGHAUL_HOME/build/seaweedfs.
 * SeaweedFS publishes no tagged Go module versions, so a pseudo-version pins
 * one commit. A cold build is many minutes on two cores; changing
 * SEAWEEDFS_MODULE_VERSION rebuilds.
 */
import type { GoTool } from './go-tool.build.mts';

export const SEAWEEDFS_MODULE_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';

export const seaweedfsTool: GoTool = {
  component: 's3',
  title: 'SeaweedFS',
  binaryName: 'weed',
  moduleName: 'seaweedfs',
  packagePath: 'github.com/seaweedfs/seaweedfs/weed',
  moduleVersion: SEAWEEDFS_MODULE_VERSION,
  coldBuild: 'about 12 minutes',
};
