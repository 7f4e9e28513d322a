/** The registry URL from `acpClient.registry.url`, the official index when unset or blank. */
import * as vscode from 'vscode';
import { DEFAULT_REGISTRY_URL } from '../agents/registry/registry-index-source';

export function registryUrl(): string {
  const configured = vscode.workspace.getConfiguration('acpClient').get<string>('registry.url')?.trim();
  return configured ? configured : DEFAULT_REGISTRY_URL;
}
