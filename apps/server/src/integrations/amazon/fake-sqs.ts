import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Amazon SQS standard queue speaking what `@aws-sdk/client-sqs` 3.x speaks: the AWS JSON 1.0 protocol
 * (`POST /`, `Content-Type: application/x-amz-json-1.0`, `X-Amz-Target: AmazonSQS.<Operation>`, a SigV4
 * `Authorization` header), with the calls Podforge and Amazon's delivery make: SendMessage, ReceiveMessage (long
 * polling, a visibility timeout, a new receipt handle per receive) and DeleteMessage.
 *
 * Strict where SQS is: an unknown target or content type is refused; the request must be signed for `sqs` with the
 * queue owner's access key (the signature itself is not recomputed); a queue URL that names no queue is
 * QueueDoesNotExist; parameters out of range are InvalidParameterValue; a receipt handle it never gave is
 * ReceiptHandleIsInvalid. Errors come as SQS's JSON errors (`__type`, `message`) with the query-compatible
 * `x-amzn-query-error` header. Delivery is at least once: a message not deleted within its visibility timeout is
 * received again, and `duplicateNext` hands the next message out twice.
 */

export type FakeSqsMessage = {
  messageId: string;
  body: string;
  receiveCount: number;
  visibleAt: number;
  receipts: string[];
};

export type FakeSqs = {
  url: string;
  accountId: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  queueUrl(name: string): string;
  queueArn(name: string): string;
  /** The messages a queue holds now (received or not). */
  messages(name: string): FakeSqsMessage[];
  /** Puts a message in a queue as a sender would. */
  inject(name: string, body: string): string;
  /** The next message received is put back at once too, as SQS's at-least-once delivery may do. */
  duplicateNext(): void;
  /** The next `count` ReceiveMessage calls are refused (403 AccessDenied: a queue policy that no longer lets the app in). */
  refuseReceives(count?: number): void;
  /** ReceiveMessage calls being answered now, and the most there were at once (two consumers polling together). */
  receiving: { now: number; most: number };
  /** Each message handed out by ReceiveMessage, in order (a message received twice is here twice). */
  received: { messageId: string; body: string }[];
  calls: { target: string; status: number }[];
  close(): Promise<void>;
};

class SqsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly queryCode: string,
    message: string,
  ) {
    super(message);
  }
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const MAX_BODY_BYTES = 262_144;

export async function startFakeSqs(
  options: { queues?: string[]; region?: string; accountId?: string; now?: () => number } = {},
): Promise<FakeSqs> {
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(20).toString('base64');
  const now = options.now ?? Date.now;
  const queues = new Map<string, FakeSqsMessage[]>((options.queues ?? ['podforge-amazon']).map((q) => [q, []]));
  const calls: FakeSqs['calls'] = [];
  const received: FakeSqs['received'] = [];
  const waiters = new Set<() => void>();
  let duplicate = false;
  let refusals = 0;
  const receiving = { now: 0, most: 0 };
  let base = '';

  const wake = () => {
    for (const w of waiters) w();
  };
  const put = (name: string, body: string) => {
    const queue = queues.get(name);
    if (!queue) throw new Error(`No queue ${name}`);
    const messageId = randomUUID();
    queue.push({ messageId, body, receiveCount: 0, visibleAt: now(), receipts: [] });
    wake();
    return messageId;
  };

  const queueOf = (input: Record<string, unknown>) => {
    const raw = input.QueueUrl;
    if (typeof raw !== 'string' || !raw)
      throw new SqsError(400, 'MissingParameter', 'AWS.SimpleQueueService.MissingParameter', 'QueueUrl is required');
    let name = '';
    try {
      const url = new URL(raw);
      const [account, queue] = url.pathname.split('/').filter(Boolean);
      if (account === accountId && queue) name = queue;
    } catch {
      // not a URL: no queue
    }
    const queue = queues.get(name);
    if (!queue)
      throw new SqsError(
        400,
        'QueueDoesNotExist',
        'AWS.SimpleQueueService.NonExistentQueue',
        'The specified queue does not exist.',
      );
    return queue;
  };
  const intIn = (input: Record<string, unknown>, key: string, min: number, max: number, fallback: number) => {
    const value = input[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw new SqsError(
        400,
        'InvalidParameterValue',
        'InvalidParameterValue',
        `Value ${String(value)} for parameter ${key} is invalid. Reason: must be between ${min} and ${max}.`,
      );
    return value;
  };

  const receiveMessage = async (input: Record<string, unknown>, signal: AbortSignal) => {
    const queue = queueOf(input);
    const max = intIn(input, 'MaxNumberOfMessages', 1, 10, 1);
    const wait = intIn(input, 'WaitTimeSeconds', 0, 20, 0);
    const visibility = intIn(input, 'VisibilityTimeout', 0, 43_200, 30);
    const until = now() + wait * 1000;
    for (;;) {
      const visible = queue.filter((m) => m.visibleAt <= now()).slice(0, max);
      if (visible.length > 0 || now() >= until || signal.aborted) {
        const messages = visible.map((m) => {
          const receipt = `${m.messageId}#${randomBytes(16).toString('base64url')}`;
          m.receipts.push(receipt);
          m.receiveCount += 1;
          m.visibleAt = now() + visibility * 1000;
          received.push({ messageId: m.messageId, body: m.body });
          if (duplicate) {
            // The same message handed out again later, under a receipt of its own.
            duplicate = false;
            queue.push({ ...m, receipts: [], receiveCount: 0, visibleAt: now() });
            wake();
          }
          return {
            MessageId: m.messageId,
            ReceiptHandle: receipt,
            MD5OfBody: md5(m.body),
            Body: m.body,
            Attributes: { ApproximateReceiveCount: String(m.receiveCount) },
          };
        });
        return messages.length > 0 ? { Messages: messages } : {};
      }
      // Long polling: answered as soon as a message arrives or the wait ends.
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, Math.max(10, Math.min(until - now(), 250)));
        waiters.add(done);
      });
    }
  };

  const operations: Record<string, (input: Record<string, unknown>, signal: AbortSignal) => Promise<unknown>> = {
    async SendMessage(input) {
      queueOf(input);
      const body = input.MessageBody;
      if (typeof body !== 'string' || body.length === 0)
        throw new SqsError(
          400,
          'MissingParameter',
          'AWS.SimpleQueueService.MissingParameter',
          'MessageBody is required',
        );
      if (Buffer.byteLength(body) > MAX_BODY_BYTES)
        throw new SqsError(
          400,
          'InvalidParameterValue',
          'InvalidParameterValue',
          'MessageBody is longer than 262144 bytes',
        );
      const name = new URL(String(input.QueueUrl)).pathname.split('/').filter(Boolean)[1] ?? '';
      return { MessageId: put(name, body), MD5OfMessageBody: md5(body) };
    },
    async ReceiveMessage(input, signal) {
      if (refusals > 0) {
        refusals -= 1;
        throw new SqsError(403, 'AccessDenied', 'AccessDenied', 'Access to the resource is denied.');
      }
      receiving.now += 1;
      receiving.most = Math.max(receiving.most, receiving.now);
      try {
        return await receiveMessage(input, signal);
      } finally {
        receiving.now -= 1;
      }
    },
    async DeleteMessage(input) {
      const queue = queueOf(input);
      const handle = input.ReceiptHandle;
      if (typeof handle !== 'string' || !handle)
        throw new SqsError(
          400,
          'MissingParameter',
          'AWS.SimpleQueueService.MissingParameter',
          'ReceiptHandle is required',
        );
      const index = queue.findIndex((m) => m.receipts.includes(handle));
      if (index >= 0) queue.splice(index, 1);
      else if (!/^[0-9a-f-]{36}#[A-Za-z0-9_-]+$/.test(handle))
        throw new SqsError(
          400,
          'ReceiptHandleIsInvalid',
          'ReceiptHandleIsInvalid',
          `The input receipt handle "${handle}" is not a valid receipt handle.`,
        );
      // A handle of a message already deleted is answered as SQS does: success.
      return {};
    },
  };

  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  const server = http.createServer((req, res) => {
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    void (async () => {
      let target = String(req.headers['x-amz-target'] ?? '');
      let status = 200;
      try {
        if (req.method !== 'POST' || (req.url ?? '/').split('?')[0] !== '/')
          throw new SqsError(404, 'UnknownOperationException', 'UnknownOperation', 'Unknown operation');
        if (!String(req.headers['content-type'] ?? '').startsWith('application/x-amz-json-1.0'))
          throw new SqsError(
            400,
            'InvalidParameterValue',
            'InvalidParameterValue',
            'Content-Type must be application/x-amz-json-1.0',
          );
        const auth = String(req.headers.authorization ?? '');
        const scope =
          /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/.exec(
            auth,
          );
        if (!scope || scope[1] !== accessKeyId || scope[3] !== 'sqs')
          throw new SqsError(
            403,
            'InvalidClientTokenId',
            'InvalidClientTokenId',
            'The security token included in the request is invalid.',
          );
        if (scope[2] !== region)
          throw new SqsError(
            403,
            'SignatureDoesNotMatch',
            'SignatureDoesNotMatch',
            `Credential should be scoped to a valid region, not '${scope[2]}'.`,
          );
        const [service, operation] = target.split('.');
        const handler = service === 'AmazonSQS' && operation ? operations[operation] : undefined;
        if (!handler)
          throw new SqsError(400, 'UnknownOperationException', 'UnknownOperation', `Unknown operation ${target}`);
        let input: Record<string, unknown>;
        try {
          input = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
        } catch {
          throw new SqsError(400, 'SerializationException', 'SerializationException', 'The body is not JSON');
        }
        const output = await handler(input, aborted.signal);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
        res.end(JSON.stringify(output));
      } catch (error) {
        const e =
          error instanceof SqsError ? error : new SqsError(500, 'InternalError', 'InternalError', String(error));
        status = e.status;
        target ||= '(none)';
        res.writeHead(e.status, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': randomUUID(),
          'x-amzn-query-error': `${e.queryCode};${e.status >= 500 ? 'Receiver' : 'Sender'}`,
        });
        res.end(JSON.stringify({ __type: `com.amazonaws.sqs#${e.type}`, message: e.message }));
      } finally {
        calls.push({ target, status });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    accountId,
    region,
    accessKeyId,
    secretAccessKey,
    queueUrl: (name) => `${base}/${accountId}/${name}`,
    queueArn: (name) => `arn:aws:sqs:${region}:${accountId}:${name}`,
    messages: (name) => structuredClone(queues.get(name) ?? []),
    inject: (name, body) => put(name, body),
    duplicateNext: () => {
      duplicate = true;
    },
    refuseReceives: (count = 1) => {
      refusals += count;
    },
    receiving,
    received,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
