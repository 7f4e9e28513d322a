/**
 * The theme variables VS Code injects into every webview, for a dark theme: the chat's CSS uses only these, so
 * the benchmark page lays out and paints like the real view.
 */
const DARK_THEME: Readonly<Record<string, string>> = {
  'font-family': 'system-ui, sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': 'monospace',
  'editor-font-size': '12px',
  foreground: '#cccccc',
  descriptionForeground: '#9d9d9d',
  errorForeground: '#f85149',
  focusBorder: '#0078d4',
  'sideBar-background': '#181818',
  'editor-background': '#1f1f1f',
  'panel-border': '#2b2b2b',
  'widget-border': '#313131',
  'input-background': '#313131',
  'input-border': '#3c3c3c',
  'input-foreground': '#cccccc',
  'input-placeholderForeground': '#989898',
  'button-background': '#0078d4',
  'button-foreground': '#ffffff',
  'button-secondaryBackground': '#313131',
  'button-secondaryForeground': '#cccccc',
  'badge-background': '#616161',
  'badge-foreground': '#f8f8f8',
  'textLink-foreground': '#4daafc',
  'textCodeBlock-background': '#2b2b2b',
  'textPreformat-foreground': '#d7ba7d',
  'diffEditor-insertedLineBackground': '#9bb95533',
  'diffEditor-removedLineBackground': '#ff000033',
  'editorWarning-foreground': '#cca700',
  'editorInfo-foreground': '#3794ff',
  'testing-iconPassed': '#73c991',
};

export const THEME_CSS = `body {\n${Object.entries(DARK_THEME)
  .map(([name, value]) => `  --vscode-${name}: ${value};`)
  .join('\n')}\n  background: var(--vscode-sideBar-background);\n}\n`;
