/**
 * Fault injection for `npm run faults`, off unless a node is started for it: once installed
 * (MW_FAILPOINTS=1, see `missionweave serve`), SIGUSR2 arms "die right after the next Group
 * commit, before any answer or delivery leaves" — the window where an Agent cannot know whether
 * its Command was applied. Nothing listens and nothing is armed otherwise.
 */

let armed = false;

export function installFailpoints(): void {
  process.on('SIGUSR2', () => {
    armed = true;
  });
}

/** Called after every Group commit; kills the process outright when armed. */
export function afterGroupCommit(): void {
  if (armed) process.kill(process.pid, 'SIGKILL');
}
