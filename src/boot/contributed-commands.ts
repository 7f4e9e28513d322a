/** The ids of `contributes.commands` in the extension's package.json (VS Code types the manifest as any). */
export function contributedCommandIds(packageJson: unknown): string[] {
  const commands: unknown = Reflect.get(Object(Reflect.get(Object(packageJson), 'contributes')), 'commands');
  if (!Array.isArray(commands)) return [];
  return commands.map((entry: unknown) => Reflect.get(Object(entry), 'command')).filter((id): id is string => typeof id === 'string');
}
