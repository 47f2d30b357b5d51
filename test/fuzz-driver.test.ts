// The fuzz story driver: stories resume on simulated time in (time, sequence) order, where each
// wait takes its sequence number when it is made; an `until` that gives up ends its story.
import { describe, expect, it } from 'vitest';
import { after, StoryDriver, until, type StoryGen } from '../src/sim/check/fuzz/driver';

/** A driver on a fake clock that jumps to each due wait, as the swarm's run loop does. */
function harness() {
  let nowMs = 0;
  const log: string[] = [];
  const driver = new StoryDriver(() => nowMs);
  const say = (text: string) => log.push(`${nowMs} ${text}`);
  const run = (endMs = 10_000) => {
    while (driver.nextAtMs <= endMs) {
      nowMs = driver.nextAtMs;
      driver.resumeNext();
    }
  };
  return { driver, log, say, run, setNow: (t: number) => (nowMs = t) };
}

describe('the story driver', () => {
  it('resumes `after` waits by time, then by the order the waits were made', () => {
    const { driver, log, say, run } = harness();
    function* story(name: string, waits: number[]): StoryGen {
      say(`${name} start`);
      for (const ms of waits) {
        yield after(ms);
        say(name);
      }
    }
    driver.start(story('a', [10, 5]));
    driver.start(story('b', [10, 5]));
    driver.start(story('c', [5, 10]));
    run();
    // c's second wait was made at 5, before a's and b's at 10, so c goes first at 15.
    expect(log).toEqual(['0 a start', '0 b start', '0 c start', '5 c', '10 a', '10 b', '15 c', '15 a', '15 b']);
  });

  it('waits at least 1 ms, so `after(0)` never resumes in the same instant', () => {
    const { driver, log, say, run } = harness();
    driver.start(
      (function* (): StoryGen {
        yield after(0);
        say('x');
        yield after(-5);
        say('y');
      })(),
    );
    run();
    expect(log).toEqual(['1 x', '2 y']);
  });

  it('a story started from inside another takes its sequence number before the starter waits again', () => {
    const { driver, log, say, run } = harness();
    function* child(): StoryGen {
      yield after(10);
      say('child');
    }
    driver.start(
      (function* (): StoryGen {
        driver.start(child());
        yield after(10);
        say('parent');
      })(),
    );
    run();
    expect(log).toEqual(['10 child', '10 parent']);
  });

  it('polls `until` every everyMs, each poll taking a fresh sequence number', () => {
    const { driver, log, say, run } = harness();
    let open = false;
    driver.start(
      (function* (): StoryGen {
        yield until(() => open, { everyMs: 10, giveUpAfterMs: 1000 });
        say('opened');
      })(),
    );
    // Made at t=0 for t=20: its sequence number is below the poll re-made at t=10 for t=20.
    driver.start(
      (function* (): StoryGen {
        yield after(20);
        open = true;
        say('open');
      })(),
    );
    run();
    expect(log).toEqual(['20 open', '20 opened']);
  });

  it('a poll made later at the same time resumes after earlier waits for that time', () => {
    const { driver, log, say, run } = harness();
    let open = false;
    driver.start(
      (function* (): StoryGen {
        yield after(5);
        open = true;
        say('open');
      })(),
    );
    driver.start(
      (function* (): StoryGen {
        yield until(() => open, { everyMs: 5, giveUpAfterMs: 100 });
        say('polled');
      })(),
    );
    driver.start(
      (function* (): StoryGen {
        yield after(5);
        say('third');
      })(),
    );
    run();
    expect(log).toEqual(['5 open', '5 polled', '5 third']);
  });

  it('ends a story whose `until` gives up: the last poll is the first at or past the deadline', () => {
    const { driver, log, say, run } = harness();
    let polls = 0;
    let finallyRan = false;
    driver.start(
      (function* (): StoryGen {
        try {
          say('start');
          yield until(
            () => {
              polls++;
              return false;
            },
            { everyMs: 10, giveUpAfterMs: 35 },
          );
          say('never');
        } finally {
          finallyRan = true;
        }
      })(),
    );
    run();
    // Polls at 10, 20, 30 and 40; 40 >= 0 + 35, so it gives up there.
    expect(polls).toBe(4);
    expect(log).toEqual(['0 start']);
    expect(finallyRan).toBe(true);
    expect(driver.waiting).toBe(0);
  });

  it('`yield*` runs a part of a story and returns its value; giving up inside ends the whole story', () => {
    const { driver, log, say, run } = harness();
    let ready = false;
    function* waitReady(giveUpAfterMs: number): StoryGen<string> {
      yield until(() => ready, { everyMs: 3, giveUpAfterMs });
      return 'ready';
    }
    driver.start(
      (function* (): StoryGen {
        yield after(7);
        ready = true;
      })(),
    );
    driver.start(
      (function* (): StoryGen {
        say(yield* waitReady(100));
        ready = false;
        say(yield* waitReady(10));
        say('never');
      })(),
    );
    run();
    expect(log).toEqual(['9 ready']);
  });

  it('a story that never waits runs to its end at once', () => {
    const { driver, log, say } = harness();
    driver.start(
      // eslint-disable-next-line require-yield -- the point: a story with no wait
      (function* (): StoryGen {
        say('done');
      })(),
    );
    driver.start(undefined);
    expect(log).toEqual(['0 done']);
    expect(driver.nextAtMs).toBe(Infinity);
  });
});
