import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { readNotification } from '../src/integrations/amazon/notifications';

/** AMAZON_SQS_QUEUE_URL read into the destination's ARN, and a queue message read against Amazon's schemas. */

const env = (extra: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/podforge-config-test', ...extra });

describe('the notification queue configuration', () => {
  it("derives the queue's ARN from its URL; a URL that names no region or account is refused in words", () => {
    expect(env({}).amazonSqs).toBeNull();
    expect(
      env({ AMAZON_SQS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/podforge-amazon' }).amazonSqs,
    ).toMatchObject({ queueArn: 'arn:aws:sqs:eu-west-1:123456789012:podforge-amazon', region: 'eu-west-1' });
    expect(() => env({ AMAZON_SQS_QUEUE_URL: 'http://127.0.0.1:9324/123456789012/q' })).toThrow(/AMAZON_SQS_REGION/);
    expect(() => env({ AMAZON_SQS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/q' })).toThrow(/queue URL/);
    expect(() =>
      env({ AMAZON_SQS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/q', AWS_ACCESS_KEY_ID: 'AKIA1' }),
    ).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });
});

describe('reading a queue message', () => {
  const order = {
    NotificationVersion: '1.0',
    NotificationType: 'ORDER_CHANGE',
    PayloadVersion: '1.0',
    EventTime: '2026-11-27T10:00:00.000Z',
    Payload: {
      OrderChangeNotification: {
        NotificationLevel: 'OrderLevel',
        SellerId: 'A3TH9S8BH6GOGM',
        AmazonOrderId: '111-0000001-0000001',
        OrderChangeType: 'OrderStatusChange',
        OrderChangeTrigger: { TimeOfOrderChange: '2026-11-27T10:00:00.000Z', ChangeReason: 'Order status changed' },
        Summary: {
          MarketplaceId: 'ATVPDKIKX0DER',
          OrderStatus: 'Unshipped',
          PurchaseDate: '2026-11-27T09:59:00.000Z',
          DestinationPostalCode: '10001',
          FulfillmentType: 'MFN',
          OrderType: 'StandardOrder',
          OrderItems: [{ OrderItemId: '1', SellerSKU: 'PF-1', SupplySourceId: null, Quantity: 1 }],
        },
      },
    },
    NotificationMetadata: {
      ApplicationId: 'amzn1.sp.solution.x',
      SubscriptionId: 's1',
      PublishTime: '2026-11-27T10:00:01.000Z',
      NotificationId: 'n1',
    },
  };

  it("takes Amazon's ORDER_CHANGE, and names what is wrong with anything else", () => {
    expect(readNotification(JSON.stringify(order))).toEqual({ notification: order });
    expect(readNotification('not json')).toEqual({ problem: 'the message body is not JSON' });
    expect(readNotification(JSON.stringify({ ...order, NotificationType: 'ANY_OFFER_CHANGED' }))).toEqual({
      problem: 'notification type ANY_OFFER_CHANGED is not one Podforge reads',
    });
    const { NotificationMetadata: _m, ...noMetadata } = order;
    expect(readNotification(JSON.stringify(noMetadata))).toMatchObject({
      problem: expect.stringMatching(/must have required property 'NotificationMetadata'/),
    });
    const badStatus = structuredClone(order);
    badStatus.Payload.OrderChangeNotification.Summary.OrderStatus = 'Lost';
    expect(readNotification(JSON.stringify(badStatus))).toMatchObject({
      problem: expect.stringMatching(/OrderStatus must be equal to one of the allowed values/),
    });
  });
});
