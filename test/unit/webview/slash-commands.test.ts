/** Slash command completion: when it opens, what matches in which order, and what accepting does. */
import * as assert from 'node:assert/strict';
import type { AvailableCommand } from '../../../src/shared/model';
import { acceptCommand, commandBeingUsed, matchCommands, slashQuery } from '../../../webview/composer/slash-commands';

const commands: AvailableCommand[] = [
  { name: 'web', description: 'Search the web', inputHint: 'query to search for' },
  { name: 'review', description: 'Review changes' },
  { name: 'plan', description: 'Make a plan' },
  { name: 'preview', description: 'Preview the site' },
];

describe('webview: slash commands', () => {
  it('opens only while the caret is in a leading /word', () => {
    assert.equal(slashQuery('/', 1), '');
    assert.equal(slashQuery('/rev', 4), 'rev');
    assert.equal(slashQuery('/rev', 2), 'r', 'what is before the caret counts');
    assert.equal(slashQuery('/review now', 11), undefined, 'past the name');
    assert.equal(slashQuery('please /review', 14), undefined, 'not at the start');
    assert.equal(slashQuery('\n/review', 8), undefined);
  });

  it('lists prefix matches before substring matches, case-insensitively', () => {
    assert.deepEqual(
      matchCommands(commands, '').map((c) => c.name),
      ['plan', 'preview', 'review', 'web'],
    );
    assert.deepEqual(
      matchCommands(commands, 'PRE').map((c) => c.name),
      ['preview'],
    );
    assert.deepEqual(
      matchCommands(commands, 'view').map((c) => c.name),
      ['preview', 'review'],
    );
    assert.deepEqual(matchCommands(commands, 'x'), []);
  });

  it('accepting replaces the typed word with the name and a space, keeping what follows', () => {
    assert.deepEqual(acceptCommand('/re', commands[1]!), { text: '/review ', caret: 8 });
    assert.deepEqual(acceptCommand('/we cats', commands[0]!), { text: '/web cats', caret: 5 });
  });

  it('knows which command is being used, for its input hint', () => {
    assert.equal(commandBeingUsed('/web ', commands)?.inputHint, 'query to search for');
    assert.equal(commandBeingUsed('/web cats', commands), undefined, 'input typed: no hint');
    assert.equal(commandBeingUsed('/nope ', commands), undefined);
  });
});
