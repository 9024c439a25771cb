/**
 * How the Mailpit binary is built from its Go module (go-tool.build.mts does the building).
 *
 * Out: $LONGHAUL_HOME/bin/mailpit and bin/mailpit.version; the throwaway module
 *      that pins the version lives in $LONGHAUL_HOME/build/mailpit.
 * A cold build is a few minutes on two cores (most of it the pure-Go SQLite);
 * changing MAILPIT_VERSION rebuilds.
 */
import type { GoTool } from './go-tool.build.mts';

export const MAILPIT_VERSION = 'v1.33.1';
const MAILPIT_PACKAGE = 'github.com/axllent/mailpit';

export const mailpitTool: GoTool = {
  component: 'mail',
  title: 'Mailpit',
  binaryName: 'mailpit',
  moduleName: 'mailpit',
  packagePath: MAILPIT_PACKAGE,
  moduleVersion: MAILPIT_VERSION,
  // Without it the binary calls itself "dev" in /api/v1/info and `mailpit version`.
  ldflags: `-X ${MAILPIT_PACKAGE}/config.Version=${MAILPIT_VERSION}`,
  // Mailpit's release build has cgo off; its SQLite is pure Go, so no C compiler is needed either.
  env: { CGO_ENABLED: '0' },
  coldBuild: 'a few minutes',
};
