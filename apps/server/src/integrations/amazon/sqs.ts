import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

export type SqsConfig = {
  queueUrl: string;
  region: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

/**
 * The app's SQS queue of Amazon notifications (`@aws-sdk/client-sqs`, AWS JSON 1.0): long-polled receive, delete
 * once handled, and send (the built-in sandbox's delivery into the same queue).
 */
export class NotificationQueue {
  private readonly client: SQSClient;

  constructor(readonly config: SqsConfig) {
    this.client = new SQSClient({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
    });
  }

  /** Up to 10 messages, waiting up to `waitSeconds` for the first; each hidden from other receivers for a minute. */
  async receive(waitSeconds: number, signal?: AbortSignal) {
    const answer = await this.client.send(
      new ReceiveMessageCommand({
        QueueUrl: this.config.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: waitSeconds,
        VisibilityTimeout: 60,
      }),
      signal ? { abortSignal: signal } : {},
    );
    return (answer.Messages ?? []).map((m) => ({ body: m.Body ?? '', receiptHandle: m.ReceiptHandle ?? '' }));
  }

  async delete(receiptHandle: string) {
    await this.client.send(new DeleteMessageCommand({ QueueUrl: this.config.queueUrl, ReceiptHandle: receiptHandle }));
  }

  async send(body: string) {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.config.queueUrl, MessageBody: body }));
  }

  close() {
    this.client.destroy();
  }
}
