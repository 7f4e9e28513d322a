/** This machine's key in the registry's binary distribution, or undefined where the registry has no builds. */
import type { Platform } from './registry-schema';

export function currentPlatform(platform: NodeJS.Platform = process.platform, arch: string = process.arch): Platform | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? `${os}-${cpu}` : undefined;
}
