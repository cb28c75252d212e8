// A Worker serving two Missions with the agent runtime (docs/sdk.md shows this file; test/runtimeExample.e2e.test.ts runs it).
import { readFileSync } from 'node:fs';
import { MissionWeaveAgent, openAgentRuntime, projectionPathIn, RuntimeHost } from 'missionweave/client';

const env = (name) => process.env[name] ?? process.exit(64);
const [missionA, missionB] = env('MW_GROUP_IDS').split(',');

// One runtime per Agent: its queues, held work and checkpoints survive a restart.
const runtime = openAgentRuntime({ path: projectionPathIn(env('MW_HOME')), agentId: env('MW_AGENT_ID'), slots: 2 });
// Mission A earns twice B's share of the slots while both have work waiting (§11.1).
runtime.setGroupPolicy(missionA, { weight: 2, priorityClass: 'normal', maxConcurrent: 2, maxQueued: 100, admitting: true });
runtime.setGroupPolicy(missionB, { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 100, admitting: true });

const agent = new MissionWeaveAgent({
  url: env('MW_URL'), ca: readFileSync(env('MW_CA_FILE'), 'utf8'), agentId: env('MW_AGENT_ID'),
  keyId: env('MW_KEY_ID'), privateKey: readFileSync(env('MW_PRIVATE_KEY_FILE'), 'utf8'),
  cursorStore: runtime.cursorStore,
});

const host = new RuntimeHost({
  agent, runtime, groups: [missionA, missionB],
  log: (line) => console.log(JSON.stringify({ log: line })),
  // One call per run of one WorkItem: its contract, context and tokens are its own Mission's only.
  handler: async (job) => {
    const step = job.resumeFrom?.step ?? 0;
    if ((await job.checkpoint({ step: step + 1 })) === 'yield') return; // preempted: resumes from here
    const report = `${job.contract.goal} (Mission ${job.groupId === missionA ? 'A' : 'B'})`;
    const { contentHash } = await job.publishArtifact(report, { mediaType: 'text/plain' });
    await job.submit({ artifactHashes: [contentHash] });
  },
});

await host.start(); // connects, sends the outbox, re-checks held work, then schedules
console.log(JSON.stringify({ ready: agent.agentId }));
process.once('SIGTERM', async () => {
  await host.stop(); // running jobs yield at their next safe checkpoint
  runtime.close();
});
