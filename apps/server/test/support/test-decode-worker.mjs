// A stand-in decode worker for decode-pool.test.ts: the pool's protocol, with jobs that misbehave on purpose.
const held = [];
process.on('message', ({ id, job }) => {
  if (job.name === 'hungry') {
    // Touches every page, so the memory is resident, and keeps going until the pool kills this process.
    const grab = () => {
      const block = Buffer.alloc(32 * 1024 * 1024, 1);
      held.push(block);
      setTimeout(grab, 5);
    };
    grab();
  } else if (job.name === 'crash') {
    process.exit(3);
  } else if (job.name === 'refuse') {
    process.send({ id, ok: false, refusal: `${job.name} was refused by the worker` });
  } else if (/^sleep-\d+$/.test(job.name)) {
    // Answers after N ms, with when it ran.
    const started = Date.now();
    setTimeout(
      () => process.send({ id, ok: true, result: { name: job.name, pid: process.pid, started, ended: Date.now() } }),
      Number(job.name.slice(6)),
    );
  } else if (/^grab-\d+-\d+$/.test(job.name)) {
    // grab-N-MS: holds N MB resident for MS ms, then answers.
    const [, mb, ms] = job.name.split('-').map(Number);
    const block = Buffer.alloc(mb * 1024 * 1024, 1);
    setTimeout(
      () => process.send({ id, ok: true, result: { name: job.name, pid: process.pid, bytes: block.length } }),
      ms,
    );
  } else if (job.name === 'hang') {
    // Never answers.
  } else {
    process.send({ id, ok: true, result: { name: job.name, pid: process.pid } });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
