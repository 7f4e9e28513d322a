/** The registry URL from the user's `acpClient.registry.url`, the official index when unset or blank. */
import { DEFAULT_REGISTRY_URL } from '../agents/registry/registry-index-source';
import { userSetting } from './user-settings';

/** A workspace's value is never used: the registry decides what gets installed and run. */
export function registryUrl(): string {
  const configured = userSetting('registry.url');
  const trimmed = typeof configured === 'string' ? configured.trim() : '';
  return trimmed ? trimmed : DEFAULT_REGISTRY_URL;
}

/** The registry's host when it is not the official one (the Add Agent picker names it), else undefined. */
export function unofficialRegistryHost(url: string): string | undefined {
  if (url === DEFAULT_REGISTRY_URL) return undefined;
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}
