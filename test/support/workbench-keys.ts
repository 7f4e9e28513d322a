/**
 * Keys typed into the real workbench on behalf of an integration test, where VS Code offers no command for it (an
 * input box's text: `type` reaches only a code editor). The test, in the extension host, writes one console line
 * (`typeInWorkbench`); the code-server launcher, which relays that console, presses the keys in Chromium as a person
 * would (`keysOf`). Only under code-server (ACP_TEST_VSCODE=desktop has no browser to type with).
 */

/** A key chord to press (Playwright's names: "Control+A", "Enter") or text to type. */
export type KeyStep = { readonly press: string } | { readonly type: string };

const PREFIX = '[acp-test-keys] ';

/** The line that asks the launcher to type `steps` (printed by the extension host's console). */
export function keysLine(steps: readonly KeyStep[]): string {
  return `${PREFIX}${JSON.stringify(steps)}`;
}

/** The steps a relayed console line asks for, or undefined when it is ordinary output. */
export function keysOf(line: string): KeyStep[] | undefined {
  if (!line.startsWith(PREFIX)) return undefined;
  const parsed: unknown = JSON.parse(line.slice(PREFIX.length));
  if (!Array.isArray(parsed)) return undefined;
  return parsed.flatMap((step: unknown): KeyStep[] => {
    if (typeof step !== 'object' || step === null) return [];
    if ('press' in step && typeof step.press === 'string') return [{ press: step.press }];
    if ('type' in step && typeof step.type === 'string') return [{ type: step.type }];
    return [];
  });
}

/** From the extension host: the launcher types `steps` into whatever has the workbench's focus. */
export function typeInWorkbench(steps: readonly KeyStep[]): void {
  console.log(keysLine(steps));
}
