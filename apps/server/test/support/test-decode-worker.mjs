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
  } else if (job.name === 'hang') {
    // Never answers.
  } else {
    process.send({ id, ok: true, result: { name: job.name, pid: process.pid } });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
