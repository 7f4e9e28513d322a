/**
 * The chat's stylesheets under media/, one per component, in cascade order: each is a `<link>` of its own under the
 * same CSP, and a later file wins over an earlier one where rules of equal specificity meet, as in one file.
 */
export const CHAT_STYLESHEETS: readonly string[] = [
  'chat/base.css',
  'chat/header.css',
  'chat/transcript.css',
  'chat/tool-call.css',
  'chat/diff-plan-notice.css',
  'chat/empty-state.css',
  'chat/composer.css',
  'chat/elicitation.css',
  'chat/compact-chrome.css',
  'chat/change-set.css',
  // Last: narrow sidebars and high contrast override the components above.
  'chat.css',
];
