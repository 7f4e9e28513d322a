/** v2 agent-owned terminal updates decoded into terminal actions, and what the reducer keeps of them. */
import * as assert from 'node:assert/strict';
import { AgentTerminalDecoder } from '../../../src/session/agent-terminals';
import { initialState, reduce } from '../../../src/shared/reducer';
import type { TranscriptAction } from '../../../src/shared/actions';

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

describe('v2 agent-owned terminals', () => {
  it('decodes output chunks in order, keeping a character split across chunks whole', () => {
    const decoder = new AgentTerminalDecoder();
    const bytes = Buffer.from('ok ✓ done');
    const texts = [bytes.subarray(0, 4), bytes.subarray(4, 5), bytes.subarray(5)].map((piece) =>
      decoder.translate({ kind: 'terminal_output_chunk', terminalId: 't', data: b64(piece) }),
    );
    assert.deepEqual(
      texts.map((action) => action.type === 'terminal_output' && action.text),
      ['ok ', '', '✓ done'],
    );
  });

  it('a snapshot replaces the output and drops bytes pending from earlier chunks; null output clears it', () => {
    const decoder = new AgentTerminalDecoder();
    decoder.translate({ kind: 'terminal_output_chunk', terminalId: 't', data: b64(Buffer.from('✓').subarray(0, 1)) });
    assert.deepEqual(decoder.translate({ kind: 'terminal_update', terminalId: 't', output: b64('fresh') }), {
      type: 'terminal_patched',
      terminalId: 't',
      output: 'fresh',
    });
    assert.deepEqual(decoder.translate({ kind: 'terminal_update', terminalId: 't', output: null }), {
      type: 'terminal_patched',
      terminalId: 't',
      output: '',
    });
  });

  it('the reducer patches only what the update names: command, exit (null clears), and whether it can be stopped', () => {
    const decoder = new AgentTerminalDecoder();
    const actions: TranscriptAction[] = [
      decoder.translate({ kind: 'terminal_update', terminalId: 't', command: 'make', cancellable: true }),
      decoder.translate({ kind: 'terminal_output_chunk', terminalId: 't', data: b64('building\n') }),
      decoder.translate({ kind: 'terminal_update', terminalId: 't', exitStatus: { exitCode: 2, signal: null }, cancellable: false }),
    ];
    const exited = actions.reduce(reduce, initialState());
    const record = exited.terminals['t'];
    assert.deepEqual(
      [record?.commandLine, record?.output, record?.exit, record?.cancellable],
      ['make', 'building\n', { exitCode: 2, signal: null }, undefined],
    );
    const cleared = reduce(exited, decoder.translate({ kind: 'terminal_update', terminalId: 't', exitStatus: null }));
    assert.equal(cleared.terminals['t']?.exit, undefined);
    assert.equal(cleared.terminals['t']?.output, 'building\n', 'untouched fields stay');
  });
});
