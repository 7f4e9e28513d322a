/** Where the bridge's bundle is: beside the extension's in the .vsix (dist/), or in the repo's dist/ for tests. */
import { bundledScript } from '../../agents/supervisor/supervisor-script';
import { BRIDGE_BUNDLE } from './bridge-env';

export function bridgeScript(): string {
  return bundledScript(BRIDGE_BUNDLE, __dirname);
}
