/** How the stdio bridge finds the editor's server: the variables the agent starts it with. */
export const BRIDGE_ENV = {
  address: 'ACP_EDITOR_TOOLS_PIPE',
  token: 'ACP_EDITOR_TOOLS_TOKEN',
} as const;

export const BRIDGE_BUNDLE = 'editor-tools-bridge.js';
