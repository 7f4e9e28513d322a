import * as assert from 'node:assert/strict';
import { shownPickItem, shownText, type Surface } from '../../../src/shared/shown-text';

/**
 * What a surface that renders icons draws, as VS Code documents its label syntax: `$(name)` or `$(name~modifier)`
 * becomes an icon, `\$(name)` the literal `$(name)`. Returns what the user reads, with each icon as `<icon:name>`.
 */
function renderIcons(text: string): string {
  return text.replace(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g, (_match, escaped: string | undefined, name: string) =>
    escaped ? `$(${name})` : `<icon:${name}>`,
  );
}

/** Any `[label](target)`: a link in markdown, and (for http(s), command and file targets) in a notification. */
const LINK = /\[[^\]]*\]\(/;

const HOSTILE = [
  '[open the settings](command:workbench.action.openSettings)',
  '[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)',
  '[passwords](file:///etc/passwd)',
  '[extension](vscode:extension/evil.pack)',
  '[docs](https://evil.example/steal?x=1 "a title")',
  '![pixel](https://evil.example/track.png)',
  '[[nested] [brackets]](command:x)',
  '[a]](command:x)',
  '[COMMAND:](COMMAND:x) [Https](HTTPS://evil.example)',
  'before [one](command:a) middle [two](https://b) after',
];

describe('shownText: agent text is inert on every VS Code surface', () => {
  for (const surface of ['notification', 'progress', 'input-prompt', 'quick-pick'] as const) {
    it(`leaves no link on a surface that parses them (${surface})`, () => {
      for (const text of HOSTILE) {
        const shown = shownText(text, surface);
        assert.doesNotMatch(shown, LINK, `${surface}: ${shown}`);
        assert.equal(shown, text.replace(/\]\(/g, '] ('), 'only a space where label and target meet');
      }
    });
  }

  for (const surface of ['progress', 'input-prompt', 'quick-pick', 'terminal-name'] as const) {
    it(`draws no icon on a surface that renders them, and the user reads what was written (${surface})`, () => {
      for (const text of ['$(zap) Deploy', 'a $(sync~spin) b', '$(x)$(y)', 'costs $(5)', 'not an icon $( x ) or $()']) {
        const shown = shownText(text, surface);
        assert.equal(renderIcons(shown), text, `${surface}: ${shown}`);
      }
    });
  }

  it('keeps a backslash the agent wrote before an icon visible, and still draws no icon', () => {
    for (const text of ['\\$(zap)', '\\\\$(zap)', 'path C:\\$(zap)']) {
      const shown = shownText(text, 'quick-pick');
      assert.doesNotMatch(renderIcons(shown), /<icon:/, shown);
      assert.equal(renderIcons(shown), text);
    }
  });

  it('leaves icons alone where VS Code shows text as it is (a notification, a tree, a dialog)', () => {
    assert.equal(shownText('$(zap) ready', 'notification'), '$(zap) ready');
    assert.equal(shownText('$(zap) [a](command:x)', 'plain'), '$(zap) [a](command:x)');
  });

  it('reads ordinary text the same', () => {
    for (const surface of ['notification', 'progress', 'input-prompt', 'quick-pick', 'terminal-name', 'plain'] satisfies Surface[]) {
      for (const text of ['Fix [bug] (urgent)', 'array[0] = f(x)', 'Price: $5 (approx.)', 'Claude Code', 'src/a (copy).ts', 'ℹ️ done 👨‍👩‍👧'])
        assert.equal(shownText(text, surface), text, `${surface}: ${text}`);
    }
  });

  it('shows bidi and invisible characters as codes, as visibleText does, on every surface', () => {
    for (const surface of ['notification', 'quick-pick', 'terminal-name', 'plain'] satisfies Surface[]) {
      assert.equal(shownText('invoice\u202Egpj.exe', surface), 'invoice<U+202E>gpj.exe');
      assert.equal(shownText('a\u200Bb', surface), 'a<U+200B>b');
    }
    // A character hidden between a label and its target cannot keep them apart unseen, nor join them.
    assert.equal(shownText('[a]\u200B(command:x)', 'notification'), '[a]<U+200B>(command:x)');
    assert.equal(shownText('$\u200B(zap)', 'quick-pick'), '$<U+200B>(zap)');
  });

  it('keeps line breaks in a notification (VS Code folds them) and flags them in a label', () => {
    assert.equal(shownText('one\ntwo', 'notification'), 'one\ntwo');
    assert.equal(shownText('one\ntwo', 'quick-pick'), 'one<U+000A>two');
    assert.equal(shownText('one\ntwo', 'quick-pick', 'multiline'), 'one\ntwo');
  });

  it('a line break between label and target is still broken (a notification folds it into a space)', () => {
    const shown = shownText('[a]\n(command:x)', 'notification');
    assert.doesNotMatch(shown.replace(/\n/g, ' '), /\]\(/);
  });

  it('makes every field of a foreign quick pick row inert and keeps the rest', () => {
    const item = shownPickItem({ label: '$(zap) Evil', description: '[x](command:y)', detail: '$(rocket)', id: 7 });
    assert.deepEqual(item, { label: '\\$(zap) Evil', description: '[x] (command:y)', detail: '\\$(rocket)', id: 7 });
    assert.deepEqual(shownPickItem({ label: 'Plain' }), { label: 'Plain' });
  });
});
