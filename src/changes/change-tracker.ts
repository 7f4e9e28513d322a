/**
 * Change tracking for one conversation: captures every file a turn changes (our fs/write_text_file and the agent's
 * own writes seen by the watcher), shows them as the turn's change card, and keeps, undoes or restores them. Turn
 * boundaries come from the transcript store (prompt sent, turn ended or failed), so the session controller needs
 * no hook; the editor reaches it only through ports.
 */
import { isAbsolute } from 'node:path';
import type { TranscriptAction } from '../shared/actions';
import type { SessionUpdate } from '../shared/updates';
import type { TranscriptState } from '../shared/model';
import type { TranscriptStore } from '../session/transcript-store';
import { Baseline } from './baseline';
import { filesOfFolderEvent, type DiskEventKind } from './event-paths';
import { ConcurrentTurns } from './concurrent-turns';
import type { ChangeLog } from './change-log';
import type { ChangeApplier, ChangeFiles } from './change-ports';
import type { FileChangeRecord, TurnChangeRecord } from './change-records';
import { viewOfRecords } from './change-view';
import type { ContentStore } from './content-store';
import { ABSENT, type FileState } from './file-state';
import { applyPlan, blockedOf, currentStates, type ApplyOutcome, type PlanApplication, type SkippedFile } from './plan-application';
import { conflictsOf, planRestore, planUndo, type RestorePlan } from './restore-plan';
import { TurnCapture } from './turn-capture';
import { pathsNamedByTurn, reportedTexts } from './turn-names';
import { errorMessage } from '../shared/error-text';

/** Watcher events trail the writes that caused them: a turn's capture stays open this long after it ends. */
const DEFAULT_SETTLE_MS = 400;
/**
 * And some trail by seconds (VS Code's watcher on a loaded 2-core machine): an event this long after the card is out
 * is still checked against the turn (its file's change time), and the card grows by it.
 */
const LATE_EVENT_WINDOW_MS = 15_000;

export interface ChangeTrackerDeps {
  readonly conversationId: string;
  readonly transcript: TranscriptStore;
  readonly files: ChangeFiles;
  readonly content: ContentStore;
  readonly log: ChangeLog;
  readonly applier: ChangeApplier;
  readonly onError: (message: string) => void;
  /** Something the user must hear of, beside the log (a change log that could not be loaded and was kept aside). */
  readonly onNotice?: (message: string) => void;
  readonly settleMs?: number;
  /**
   * The workspace's baseline, shared by every conversation on it (seeding reads the whole workspace once, not once
   * per conversation); a tracker of its own when absent.
   */
  readonly baseline?: Baseline;
  /** The conversations whose turns may run beside this one's (to tell whose agent changed a file); alone if absent. */
  readonly turns?: ConcurrentTurns;
}

export class ChangeTracker {
  private readonly baseline: Baseline;
  private records: TurnChangeRecord[] = [];
  private turns: string[] = [];
  private capture: TurnCapture | undefined;
  /** The turn before (settled): another conversation may still ask what it named. */
  private lastCapture: TurnCapture | undefined;
  private readonly turnsAlongside: ConcurrentTurns;
  /** The paths the last asked-about turn's tool calls named, for the transcript state they were read from. */
  private namedCache: { state: TranscriptState; turnId: string; paths: Set<string> } | undefined;
  private readonly finishing = new Set<Promise<void>>();
  /** Watcher events being read outside a turn's queue (the baseline's refreshes, a new folder's files, late events). */
  private readonly reading = new Set<Promise<void>>();
  private loaded: Promise<void>;
  private restores = 0;
  private readonly subscriptions: { dispose(): void }[];
  /** Paths our own undo/restore is writing: their watcher events are not changes by anyone. */
  private readonly applying = new Set<string>();
  private readonly application: PlanApplication;

  constructor(private readonly deps: ChangeTrackerDeps) {
    this.baseline = deps.baseline ?? new Baseline(deps.files, deps.content);
    this.turnsAlongside = deps.turns ?? new ConcurrentTurns();
    const settleMs = deps.settleMs ?? DEFAULT_SETTLE_MS;
    this.application = { ...deps, baseline: this.baseline, applying: this.applying, settleMs };
    this.loaded = deps.log.load().then((stored) => {
      if (stored.problem !== undefined) {
        deps.onError(stored.problem);
        deps.onNotice?.(stored.problem);
      }
      this.records = [...stored.records, ...this.records];
      this.turns = [...stored.turns, ...this.turns];
      this.restores = stored.records.filter((r) => r.origin === 'restore').length;
    });
    this.subscriptions = [
      deps.transcript.subscribe((action, state, previous) => this.onTranscript(action, state, previous)),
      // The records' content is evicted last, and a card whose content went says so at once.
      deps.content.use({ pinned: () => this.pinnedHashes(), evicted: (hashes) => this.contentEvicted(hashes) }),
      this.turnsAlongside.join({ id: deps.conversationId, capturing: () => this.capturing, names: (path) => this.names(path) }),
    ];
    void this.baseline.seed().catch((error: unknown) => this.reportError(error));
  }

  dispose(): void {
    if (this.capture) this.baseline.turnEnded(this.capture);
    this.subscriptions.forEach((s) => s.dispose());
  }

  /** Settles once seeding, loading and every ending turn are done (tests and benchmarks wait on it). */
  async idle(): Promise<void> {
    await Promise.all([this.baseline.seed(), this.loaded, ...this.finishing, ...this.reading]);
    // What that work started is waited for too: a folder's event reads each file listed in it, after the listing.
    while (this.finishing.size > 0 || this.reading.size > 0) await Promise.all([...this.finishing, ...this.reading]);
  }

  /** A turn is running (or settling): disk changes now are captured as this conversation's. */
  get capturing(): boolean {
    return this.capture !== undefined;
  }

  /** No turn runs, and a watcher event may still be a late report of the last one's change. */
  get awaitingLateEvents(): boolean {
    return this.capture === undefined && this.lastCapture?.awaitsLate(LATE_EVENT_WINDOW_MS) === true;
  }

  get baselineSize(): number {
    return this.baseline.size;
  }

  /** Whether "Restore to here" on the message of `turnId` has anything to work with. */
  hasCheckpoint(turnId: string): boolean {
    return this.turns.includes(turnId);
  }

  // --- what the fs handler and the watcher report ---------------------------------------------------------------

  /** Right before our fs/write_text_file of `content` lands (after any review): its exact before-state. */
  async beforeClientWrite(path: string, content?: string): Promise<void> {
    if (this.deps.files.excluded(path)) return;
    const capture = this.capture;
    if (capture) await capture.enqueue(() => capture.beforeClientWrite(path, content));
  }

  /** A whole file the agent read through us: its baseline if the walk has not reached it. */
  clientRead(path: string, content: string): void {
    this.capture?.noteRead(path);
    if (this.capture?.has(path) || this.deps.files.excluded(path) || this.baseline.stateOf(path).kind === 'file') return;
    this.baseline.learn(path, this.deps.content.put(new TextEncoder().encode(content))).catch((error: unknown) => this.reportError(error));
  }

  /** The watcher: created, changed or deleted on disk. */
  diskChanged(path: string): void {
    if (this.deps.files.excluded(path) || this.applying.has(path)) return;
    if (this.capture) return this.capture.diskChanged(path);
    const last = this.lastCapture;
    this.whileReading(last && this.awaitingLateEvents ? this.lateOrOutside(last, path) : this.baseline.refresh(path));
  }

  private whileReading(work: Promise<unknown>): void {
    const tracked = work.then(
      () => undefined,
      (error: unknown) => this.reportError(error),
    );
    this.reading.add(tracked);
    void tracked.finally(() => this.reading.delete(tracked));
  }

  /** An event just after a turn: the turn's change reported late (its card grows), else a change by someone else. */
  private async lateOrOutside(capture: TurnCapture, path: string): Promise<void> {
    // Counted as a read for the baseline from now: its folder deleted meanwhile re-reads it, and what this finds
    // then is not recorded over that.
    const read = this.baseline.beginRead(path);
    let file: FileChangeRecord | undefined;
    try {
      // The card is out first: a late file is added to it, never raced by its first publication.
      await Promise.all(this.finishing);
      file = await capture.lateChange(path);
    } finally {
      this.baseline.endRead(path, read, file?.after);
    }
    if (!file) {
      await this.baseline.refresh(path);
      return;
    }
    await this.loaded;
    const index = this.records.findIndex((r) => r.turnId === capture.turnId && r.origin === 'turn');
    const record = this.records[index];
    if (!record) return this.addRecord({ turnId: capture.turnId, origin: 'turn', files: [file] });
    const grown = { ...record, files: [...record.files, file] };
    this.records[index] = grown;
    await this.publish(grown);
  }

  /**
   * The watcher: created (or changed: a folder made again can come as a change). For a new folder VS Code reports
   * the folder only, not the files made in it before its watch began (a folder made with a file in it at once):
   * those are looked up, or a file the user made there is unknown to the baseline and a turn that rewrites it would
   * call it the agent's creation.
   */
  diskCreated(path: string): void {
    this.diskEvent('created', path);
  }

  /**
   * The watcher: deleted. A folder deleted with its files is reported as the folder only: the files the baseline
   * knows in it are gone too (else a later file of the same content there would look unchanged, and the agent's
   * `rm -r` would show no deletion).
   */
  diskDeleted(path: string): void {
    this.diskEvent('deleted', path);
  }

  private diskEvent(kind: DiskEventKind, path: string): void {
    this.diskChanged(path);
    if (this.deps.files.excluded(path) || this.applying.has(path)) return;
    this.whileReading(filesOfFolderEvent(kind, path, this.deps.files, this.baseline, (file) => this.diskChanged(file)));
  }

  /** The user saved a document in the editor: whatever it holds now is theirs, never the agent's change. */
  userSaved(path: string): void {
    if (this.deps.files.excluded(path) || this.capture?.has(path)) return;
    const refresh = (): Promise<void> => this.baseline.refresh(path).then(() => undefined);
    if (this.capture) void this.capture.enqueue(refresh);
    else void refresh().catch((error: unknown) => this.reportError(error));
  }

  // --- review -----------------------------------------------------------------------------------------------------

  /** Every change set of the conversation and every turn, in the order they ran (the conversation-wide review). */
  async history(): Promise<{ readonly records: readonly TurnChangeRecord[]; readonly turns: readonly string[] }> {
    await this.loaded;
    return { records: this.records, turns: this.turns };
  }

  record(turnId: string): TurnChangeRecord | undefined {
    return this.records.find((r) => r.turnId === turnId);
  }

  /** Keep: the files leave review; nothing on disk changes. */
  async keep(turnId: string, paths?: readonly string[]): Promise<void> {
    await this.setReview(turnId, this.selected(turnId, paths), 'kept');
  }

  /** Undo: back to the before-state; files edited after the agent are a conflict unless `force`. */
  async undo(turnId: string, paths?: readonly string[], force = false): Promise<ApplyOutcome> {
    const selected = this.selected(turnId, paths);
    await this.deps.content.ready();
    const plan = planUndo(selected, this.kept);
    const outcome = await applyPlan(plan, force, this.application);
    if (outcome.kind !== 'applied') return outcome;
    await this.setReview(
      turnId,
      selected.filter((r) => outcome.paths.includes(r.path)),
      'undone',
    );
    // Undoing a restore puts the agent's changes back: they are under review again, and a later restore rewinds them.
    for (const { turnId: rewoundTurn, path } of this.record(turnId)?.rewound ?? [])
      if (outcome.paths.includes(path))
        await this.setReview(
          rewoundTurn,
          (this.record(rewoundTurn)?.files ?? []).filter((f) => f.path === path),
          'pending',
        );
    return outcome;
  }

  /** What "Restore to here" for the message of `turnId` would do: the preview. */
  async previewRestore(
    turnId: string,
  ): Promise<(RestorePlan & { readonly conflicts: readonly string[]; readonly blocked: readonly SkippedFile[] }) | undefined> {
    await Promise.all([this.loaded, this.deps.content.ready()]);
    const whole = planRestore(this.records, this.turns, turnId, this.kept);
    if (!whole) return undefined;
    const blocked = await blockedOf(whole.files, this.deps.files.roots());
    const plan = { ...whole, files: whole.files.filter((f) => !blocked.some((b) => b.path === f.path)) };
    return { ...plan, conflicts: await this.conflictsNow(plan), blocked };
  }

  /**
   * Restores; recorded as a change set of its own, whose Undo puts back what the restore replaced. Files left out
   * (`except`) stay in their turns' review as they were.
   */
  async restore(turnId: string, force = false, except: readonly string[] = []): Promise<ApplyOutcome> {
    await Promise.all([this.loaded, this.deps.content.ready()]);
    const whole = planRestore(this.records, this.turns, turnId, this.kept);
    if (!whole) return { kind: 'nothing' };
    // `except`: files the user chose to leave as they are (their own edits since the agent's).
    const plan = { ...whole, files: whole.files.filter((f) => !except.includes(f.path)) };
    const before = await currentStates(
      this.deps.files,
      this.deps.content,
      plan.files.map((f) => f.path),
    );
    const outcome = await applyPlan(plan, force, this.application);
    if (outcome.kind !== 'applied') return outcome;
    const restored = new Set(outcome.paths);
    const later = new Set(this.turns.slice(this.turns.indexOf(turnId)));
    const rewound: { turnId: string; path: string }[] = [];
    for (const record of this.records.filter((r) => later.has(r.turnId))) {
      const files = record.files.filter((f) => f.review !== 'undone' && restored.has(f.path));
      rewound.push(...files.map((f) => ({ turnId: record.turnId, path: f.path })));
      await this.setReview(record.turnId, files, 'undone');
    }
    const files: FileChangeRecord[] = plan.files
      .filter((f) => restored.has(f.path))
      .map((f) => ({ path: f.path, before: before.get(f.path) ?? ABSENT, after: f.target, origin: 'client', review: 'pending' }));
    await this.addRecord({ turnId: `restore-${++this.restores}`, origin: 'restore', files, rewound });
    return outcome;
  }

  // --- internals --------------------------------------------------------------------------------------------------

  /** Turn boundaries from the turn state itself: prompts, answers, failures and v2 idle states all move it. */
  private onTranscript(action: TranscriptAction, state: TranscriptState, previous: TranscriptState): void {
    if (this.capture && action.type === 'session_update') this.primeNamed(action.update);
    const was = previous.turn.phase === 'idle' ? undefined : previous.turn.turnId;
    const now = state.turn.phase === 'idle' ? undefined : state.turn.turnId;
    if (was !== undefined && was !== now) this.endTurn(was);
    if (now !== undefined && now !== was) this.beginTurn(now);
  }

  /**
   * A tool call names the files it will work on before it runs: their before-content is read now, ahead of the
   * baseline walk, so a change in the first moments of a turn still has its "before".
   */
  private primeNamed(update: SessionUpdate): void {
    if (this.baseline.isSeeded || (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update')) return;
    const paths = [
      ...(update.locations ?? []).map((l) => l.path),
      ...(update.content ?? []).flatMap((c) => (c.type === 'diff' ? c.files.map((f) => f.path) : [])),
    ];
    for (const path of paths)
      if (isAbsolute(path) && !this.capture?.has(path) && !this.deps.files.excluded(path))
        this.baseline.prime(path).catch((error: unknown) => this.reportError(error));
  }

  private beginTurn(turnId: string): void {
    this.turns.push(turnId);
    const id = this.deps.conversationId;
    this.capture = new TurnCapture(turnId, this.deps.files, this.deps.content, this.baseline, (error) => this.reportError(error), {
      othersCapturing: () => this.turnsAlongside.othersCapturing(id),
      attribute: (path, alongside) => this.turnsAlongside.attribute(id, path, alongside),
    });
    this.baseline.turnBegan(this.capture);
    // Open editors hold files the walk may not have reached yet: their text is a known "before".
    for (const [path, text] of this.deps.files.openTexts()) this.clientRead(path, text);
  }

  private endTurn(turnId: string): void {
    const capture = this.capture;
    if (capture?.turnId !== turnId) return;
    const done = (async () => {
      await new Promise((resolve) => setTimeout(resolve, this.deps.settleMs ?? DEFAULT_SETTLE_MS));
      // Files the turn's tool calls named are checked now, whether or not the watcher has reported them yet.
      for (const path of pathsNamedByTurn(this.deps.transcript.state, turnId))
        if (isAbsolute(path) && !this.deps.files.excluded(path) && !this.applying.has(path)) capture.namedAtEnd(path);
      await capture.sweepTouchedFolders();
      if (this.capture === capture) this.capture = undefined;
      this.lastCapture = capture;
      const files = await capture.finish().finally(() => this.baseline.turnEnded(capture));
      await this.loaded;
      if (files.length > 0) await this.addRecord({ turnId, origin: 'turn', files });
      else await this.deps.log.save({ turns: this.turns, records: this.records });
    })().catch((error: unknown) => this.reportError(error));
    this.finishing.add(done);
    void done.finally(() => this.finishing.delete(done));
  }

  private async addRecord(record: TurnChangeRecord): Promise<void> {
    this.records.push(record);
    if (!this.turns.includes(record.turnId)) this.turns.push(record.turnId);
    await this.publish(record);
  }

  private selected(turnId: string, paths: readonly string[] | undefined): FileChangeRecord[] {
    const files = this.record(turnId)?.files ?? [];
    if (paths === undefined) return files.filter((f) => f.review === 'pending');
    // A rename shows as its new path: its deletion of the old path goes with it.
    const wanted = new Set(paths);
    const hashes = new Set(
      files.flatMap((f) => (wanted.has(f.path) && f.before.kind === 'absent' && f.after.kind === 'file' ? [f.after.hash] : [])),
    );
    return files.filter((f) => wanted.has(f.path) || (f.after.kind === 'absent' && f.before.kind === 'file' && hashes.has(f.before.hash)));
  }

  private async setReview(turnId: string, files: readonly FileChangeRecord[], review: FileChangeRecord['review']): Promise<void> {
    const index = this.records.findIndex((r) => r.turnId === turnId);
    const record = this.records[index];
    if (!record || files.length === 0) return;
    const paths = new Set(files.map((f) => f.path));
    const next = { ...record, files: record.files.map((f) => (paths.has(f.path) ? { ...f, review } : f)) };
    this.records[index] = next;
    await this.publish(next);
  }

  /** Files changed since the agent left them, on disk or (unsaved) in an editor. */
  private async conflictsNow(plan: RestorePlan): Promise<string[]> {
    const changed = conflictsOf(
      plan,
      await currentStates(
        this.deps.files,
        this.deps.content,
        plan.files.map((f) => f.path),
      ),
    );
    return [...new Set([...changed, ...plan.files.map((f) => f.path).filter((p) => this.deps.files.unsaved(p))])];
  }

  /** Whether this conversation's running or last turn named the path (through us, or in its tool calls). */
  private names(path: string): boolean {
    return [this.capture, this.lastCapture].some(
      (capture) => capture !== undefined && (capture.names(path) || this.namedByTools(capture.turnId).has(path)),
    );
  }

  private namedByTools(turnId: string): Set<string> {
    const state = this.deps.transcript.state;
    const cached = this.namedCache;
    if (cached?.state === state && cached.turnId === turnId) return cached.paths;
    const paths = pathsNamedByTurn(state, turnId);
    this.namedCache = { state, turnId, paths };
    return paths;
  }

  /** Content can be written back only while the store still has it. */
  private readonly kept = (state: FileState): boolean =>
    state.kind === 'absent' || (state.kind === 'file' && state.stored && this.deps.content.has(state.hash));

  private pinnedHashes(): string[] {
    return this.records.flatMap((r) => r.files.flatMap((f) => [f.before, f.after].flatMap((s) => (s.kind === 'file' ? [s.hash] : []))));
  }

  /** The cards naming evicted content are shown again, now with the note that it is gone. */
  private contentEvicted(hashes: ReadonlySet<string>): void {
    const named = (s: FileState): boolean => s.kind === 'file' && hashes.has(s.hash);
    for (const record of this.records)
      if (record.files.some((f) => named(f.before) || named(f.after)))
        void this.publish(record, false).catch((error: unknown) => this.reportError(error));
  }

  /** Persists, and shows the record's card in the transcript with what the agent's tool calls reported. */
  private async publish(record: TurnChangeRecord, save = true): Promise<void> {
    if (save) await this.deps.log.save({ turns: this.turns, records: this.records });
    const reported = reportedTexts(this.deps.transcript.state, record.turnId);
    const files = await viewOfRecords(record.files, this.deps.content, reported);
    // Only absolute paths can be compared with what the watcher saw; a relative one says nothing either way.
    const unseen = [...reported.keys()].filter((path) => isAbsolute(path) && !record.files.some((f) => f.path === path));
    const notes = unseen.length > 0 ? [`The agent reported changes that did not reach the disk: ${unseen.join(', ')}`] : [];
    this.deps.transcript.dispatch({
      type: 'change_set_recorded',
      turnId: record.turnId,
      origin: record.origin,
      files,
      ...(notes.length > 0 ? { notes } : {}),
    });
  }

  private reportError(error: unknown): void {
    this.deps.onError(errorMessage(error));
  }
}
