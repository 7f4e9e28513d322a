/**
 * One long agent message streamed into the real webview through its message interface, as the host posts it
 * (one merged chunk action per coalescing window), while a heartbeat timer records every stretch the main
 * thread was busy. Runs inside Chromium (bundled into probe.js).
 */
import type { TranscriptAction } from '../../../src/shared/actions';
import type { HiddenText, LongMessageKind, MessageLayout, MessageStreamFigures, MessageStreamOptions } from '../message-stream-api';

const MESSAGE_ID = 'long-message';
const HEARTBEAT_MS = 4;

function markdownSection(index: number): string {
  return [
    `## Section ${index}: the parser — état ${index % 7}`,
    '',
    `The tokenizer in \`src/part-${index}.ts\` reads **the whole buffer** before it splits it; see [the notes](https://example.com/${index}).`,
    'Streaming keeps memory flat on large inputs: 字节 are counted, not characters, and 🚀 takes two code units.',
    '',
    '- empty input and a single token',
    `- tokens split across chunk ${index} boundaries`,
    '  with a continuation line',
    '',
    '```ts',
    `export function* tokenize${index}(source: string): Generator<string> {`,
    '  for (const match of source.matchAll(TOKEN)) yield match[0];',
    '}',
    '```',
    '',
    '',
  ].join('\n');
}

function codeLine(index: number): string {
  return `export const value${index} = compute(${index}, "ünïcode"); // line ${index} of a very long generated file\n`;
}

/** The message, about `totalChars` long, ending with `marker` (the last thing to reach the screen). */
function messageText(kind: LongMessageKind, totalChars: number, marker: string): string {
  const parts: string[] = [];
  let length = 0;
  if (kind === 'code-block') {
    parts.push('Here is the generated file:\n\n```ts\n');
    for (let line = 0; length < totalChars; line++) {
      const text = codeLine(line);
      parts.push(text);
      length += text.length;
    }
    parts.push(`// ${marker}\n\`\`\`\n`);
  } else if (kind === 'flood') {
    // What the flood agent sends (test/fixtures/agents/raw-faults.ts, 'flood-message'): 4 KB paragraphs of words.
    const paragraph = `${'flood words '.repeat(341)}\n\n`.slice(0, 4096);
    for (; length < totalChars; length += paragraph.length) parts.push(paragraph);
    parts.push(`Done: ${marker}`);
  } else {
    for (let section = 0; length < totalChars; section++) {
      const text = markdownSection(section);
      parts.push(text);
      length += text.length;
    }
    parts.push(`Done: ${marker}`);
  }
  return parts.join('');
}

/** Chunk boundaries every `size` code units, never between the halves of a surrogate pair. */
function chunkEnds(text: string, size: number): number[] {
  const ends: number[] = [];
  for (let end = size; end < text.length; end += size) {
    const code = text.charCodeAt(end);
    ends.push(code >= 0xdc00 && code <= 0xdfff ? end + 1 : end);
  }
  ends.push(text.length);
  return ends;
}

function afterNextPaint(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)));
}

/**
 * Whether the message's last characters are the marker. Reads only the last text nodes: the probe runs after
 * every paint while the heartbeat still counts, and `textContent` of the last group (256 KB in the flood, the
 * whole 200 KB code block) cost the probe itself up to 60 ms a paint, counted as the webview's block.
 */
function markerShown(marker: string): boolean {
  const markdown = document.querySelector(`[data-entry-key="msg:agent:${MESSAGE_ID}"] .markdown`);
  if (!markdown) return false;
  const walker = document.createTreeWalker(markdown, NodeFilter.SHOW_TEXT);
  let last: Node | null = markdown;
  while (last.lastChild) last = last.lastChild;
  walker.currentNode = last;
  let text = last.nodeType === Node.TEXT_NODE ? (last.textContent ?? '') : '';
  while (text.length < 400 + marker.length) {
    const previous = walker.previousNode();
    if (!previous) break;
    text = (previous.textContent ?? '') + text;
  }
  return text.slice(-400).includes(marker);
}

function watchBlocks(): { stop(): number[] } {
  const blocks: number[] = [];
  let last = performance.now();
  let timer: ReturnType<typeof setTimeout>;
  const beat = (): void => {
    const now = performance.now();
    // A beat over a millisecond late means the thread was busy: the whole gap is the (upper bound of the) stretch.
    if (now - last > HEARTBEAT_MS + 1) blocks.push(now - last);
    // With BENCH_VERBOSE the bench prints the page console: say when a long stretch was.
    if (now - last > 50) console.debug(`heartbeat late: ${Math.round(now - last)} ms busy, until ${Math.round(now)} ms`);
    // And mark it in a trace (BENCH_MESSAGE_TRACE), so the frames that made up a long block can be found.
    if (now - last > 45) performance.measure(`late-${Math.round(now - last)}`, { start: last, end: now });
    last = now;
    timer = setTimeout(beat, HEARTBEAT_MS);
  };
  timer = setTimeout(beat, HEARTBEAT_MS);
  return {
    stop: () => {
      clearTimeout(timer);
      return blocks;
    },
  };
}

export async function streamMessage(options: MessageStreamOptions): Promise<MessageStreamFigures> {
  const marker = `end-of-message-${options.kind}`;
  const text = messageText(options.kind, options.totalChars, marker);
  const ends = chunkEnds(text, options.chunkChars);
  const watch = watchBlocks();
  const started = performance.now();
  console.debug(`stream starts at ${Math.round(started)} ms`);
  let seq = options.seq;
  let sent = 0;
  let posts = 0;
  let lastPostAt = started;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(ends.length, Math.floor(((performance.now() - started) * options.chunksPerSecond) / 1000));
      if (due > sent) {
        const from = sent === 0 ? 0 : (ends[sent - 1] ?? 0);
        const to = ends[due - 1] ?? text.length;
        sent = due;
        const action: TranscriptAction = {
          type: 'session_update',
          update: { sessionUpdate: 'agent_message_chunk', messageId: MESSAGE_ID, content: { type: 'text', text: text.slice(from, to) } },
        };
        seq++;
        posts++;
        lastPostAt = performance.now();
        window.postMessage({ type: 'actions', firstSeq: seq, actions: [action] }, '*');
      }
      if (sent < ends.length) setTimeout(tick, options.windowMs);
      else resolve();
    };
    setTimeout(tick, options.windowMs);
  });
  for (;;) {
    const painted = await afterNextPaint();
    if (markerShown(marker)) {
      return { chunks: ends.length, posts, blocksMs: watch.stop(), fullyShownMs: painted - started, afterLastPostMs: painted - lastPostAt };
    }
    if (painted - lastPostAt > 60_000) {
      const blocks = document.querySelectorAll(`[data-entry-key="msg:agent:${MESSAGE_ID}"] .md-block`);
      const last = blocks[blocks.length - 1]?.textContent ?? '';
      throw new Error(
        `the end of the ${options.kind} message never reached the screen (${blocks.length} blocks, the last ends ${JSON.stringify(last.slice(-80))})`,
      );
    }
  }
}

/** See MessageLayout. Lays out every group of the message, so run it after the figures. */
export function messageLayout(): MessageLayout {
  const elements: Record<string, number> = {};
  for (const element of document.querySelectorAll('*')) elements[element.tagName] = (elements[element.tagName] ?? 0) + 1;
  const groups = [...document.querySelectorAll<HTMLElement>(`[data-entry-key="msg:agent:${MESSAGE_ID}"] .markdown > .md-group`)];
  // Laid out even off screen, with the containment content-visibility: auto gives them on screen (so margins do
  // not collapse from one group into the next, as they do not when the user sees them).
  for (const group of groups) {
    // Hidden: a group drawn while the stream was far behind, shown when it comes near the viewport (streaming-markdown.ts).
    const visibility = getComputedStyle(group).contentVisibility;
    if (visibility !== 'auto' && visibility !== 'hidden') continue;
    group.style.contentVisibility = 'visible';
    group.style.contain = 'layout style paint';
  }
  const boxes = groups.flatMap((group) => [...group.children]).map((block) => block.getBoundingClientRect());
  const gaps: Record<string, number> = {};
  for (let i = 1; i < boxes.length; i++) {
    const gap = String(Math.round((boxes[i]!.top - boxes[i - 1]!.bottom) * 10) / 10);
    gaps[gap] = (gaps[gap] ?? 0) + 1;
  }
  return { elements, gaps };
}

/** Groups of the streamed message still drawn behind: content-visibility: hidden keeps them from the accessibility tree. */
export function hiddenText(): HiddenText {
  const groups = [...document.querySelectorAll<HTMLElement>(`[data-entry-key="msg:agent:${MESSAGE_ID}"] .markdown > .md-group.md-behind`)];
  return { groups: groups.length, chars: groups.reduce((sum, group) => sum + (group.textContent?.length ?? 0), 0) };
}
