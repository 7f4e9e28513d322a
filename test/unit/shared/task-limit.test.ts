/** TaskLimit: how many run at once, the order the rest start in, and turns given back however a task ends. */
import * as assert from 'node:assert/strict';
import { TaskLimit } from '../../../src/shared/task-limit';

/** A task the test finishes by hand, recording when it started. */
interface HeldTask {
  readonly started: Promise<void>;
  finish(): void;
  fail(error: Error): void;
}

function held(log: string[], name: string): { task: () => Promise<string>; control: HeldTask } {
  let finish = (): void => undefined;
  let fail = (_error: Error): void => undefined;
  let markStarted = (): void => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const task = (): Promise<string> => {
    log.push(name);
    markStarted();
    return new Promise<string>((resolve, reject) => {
      finish = () => resolve(name);
      fail = reject;
    });
  };
  return { task, control: { started, finish: () => finish(), fail: (error) => fail(error) } };
}

/** Lets every promise callback already due run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TaskLimit', () => {
  it('runs at most its number at once and starts the rest in the order they came as earlier ones finish', async () => {
    const limit = new TaskLimit(2);
    const log: string[] = [];
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((name) => held(log, name));
    const results = tasks.map(({ task }) => limit.run(task));
    await settle();
    assert.deepEqual(log, ['a', 'b']);
    tasks[1]?.control.finish();
    await settle();
    assert.deepEqual(log, ['a', 'b', 'c']);
    tasks[0]?.control.finish();
    await settle();
    assert.deepEqual(log, ['a', 'b', 'c', 'd']);
    tasks[2]?.control.finish();
    tasks[3]?.control.finish();
    await tasks[4]?.control.started;
    tasks[4]?.control.finish();
    assert.deepEqual(await Promise.all(results), ['a', 'b', 'c', 'd', 'e']);
  });

  it('gives the turn back when a task rejects or throws before returning a promise, and the caller gets the error', async () => {
    const limit = new TaskLimit(1);
    const log: string[] = [];
    const rejecting = held(log, 'rejects');
    const rejected = limit.run(rejecting.task);
    const thrown = limit.run(() => {
      log.push('throws');
      throw new Error('thrown at once');
    });
    const after = held(log, 'after');
    const last = limit.run(after.task);
    await rejecting.control.started;
    rejecting.control.fail(new Error('rejected'));
    await assert.rejects(rejected, /rejected/);
    await assert.rejects(thrown, /thrown at once/);
    await after.control.started;
    after.control.finish();
    assert.equal(await last, 'after');
    assert.deepEqual(log, ['rejects', 'throws', 'after']);
  });

  it('lets no task that comes later take a turn before one already waiting, even one sent as a turn is given back', async () => {
    const limit = new TaskLimit(1);
    const log: string[] = [];
    let finishFirst = (): void => undefined;
    const firstDone = new Promise<string>((resolve) => (finishFirst = () => resolve('first')));
    const first = limit.run(() => {
      log.push('first');
      return firstDone;
    });
    const waiting = held(log, 'waiting');
    const second = limit.run(waiting.task);
    await settle();
    // Runs right after the limit's own continuation gave the first task's turn back, before the waiting one starts:
    // a limit that only counted the turn free again and let the waiting one take it later would let this one in.
    const late = held(log, 'late');
    const third = firstDone.then(() => limit.run(late.task));
    finishFirst();
    await waiting.control.started;
    waiting.control.finish();
    await late.control.started;
    late.control.finish();
    assert.deepEqual(await Promise.all([first, second, third]), ['first', 'waiting', 'late']);
    assert.deepEqual(log, ['first', 'waiting', 'late']);
  });

  it('settles a thousand tasks, every third failing, without ever running more than its number', async () => {
    const limit = new TaskLimit(4);
    let now = 0;
    let most = 0;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 1_000 }, (_, index) =>
        limit.run(async () => {
          now++;
          most = Math.max(most, now);
          await settle();
          now--;
          if (index % 3 === 0) throw new Error(`task ${index}`);
          return index;
        }),
      ),
    );
    assert.equal(outcomes.filter((outcome) => outcome.status === 'rejected').length, 334);
    assert.equal(most, 4);
    // Turns all given back: a new task starts at once.
    assert.equal(await limit.run(() => Promise.resolve('free')), 'free');
  });

  it('refuses a number below one, which would never run anything', () => {
    assert.throws(() => new TaskLimit(0), RangeError);
    assert.throws(() => new TaskLimit(1.5), RangeError);
  });
});
