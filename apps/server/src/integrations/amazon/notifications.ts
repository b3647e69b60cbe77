import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { SERVER_ROOT } from '../../lib/paths';
import type { AmazonNotificationType } from './limits';
import { describe } from './openapi-validator';

/**
 * SP-API notifications as they arrive in an SQS message's body: the envelope (`NotificationVersion`,
 * `NotificationType`, `PayloadVersion`, `EventTime`, `Payload`, `NotificationMetadata.NotificationId`), checked
 * against Amazon's own schema of each type (`models/OrderChangeNotification.json`,
 * `models/ListingsItemIssuesChangeNotification_2023-12-13.json`): the fake checks what it sends, the app what it reads.
 */

export type OrderChangeNotification = {
  NotificationType: 'ORDER_CHANGE';
  Payload: {
    OrderChangeNotification: {
      SellerId: string;
      AmazonOrderId: string;
      OrderChangeType: string;
      Summary: { MarketplaceId: string; OrderStatus: string; FulfillmentType: 'AFN' | 'MFN' };
    };
  };
};
export type ListingsItemIssuesChangeNotification = {
  NotificationType: 'LISTINGS_ITEM_ISSUES_CHANGE';
  Payload: { SellerId: string; MarketplaceId?: string; Sku: string; Severities: string[] };
};
type Envelope = {
  NotificationVersion: string;
  PayloadVersion: string;
  EventTime: string;
  NotificationMetadata: { ApplicationId: string; SubscriptionId: string; PublishTime: string; NotificationId: string };
};
export type AmazonNotification = Envelope & (OrderChangeNotification | ListingsItemIssuesChangeNotification);

const SCHEMA_FILES: Record<AmazonNotificationType, string> = {
  ORDER_CHANGE: 'OrderChangeNotification.json',
  LISTINGS_ITEM_ISSUES_CHANGE: 'ListingsItemIssuesChangeNotification_2023-12-13.json',
};

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

/** Amazon's schemas name each property with an `$id` JSON pointer, which Ajv reads as another schema: dropped. */
const withoutIds = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== '$id' && k !== '$schema' && k !== 'examples')
      .map(([k, v]) => [k, withoutIds(v)]),
  );
};

let validators: Map<string, ValidateFunction> | null = null;
const validatorOf = (type: AmazonNotificationType) => {
  if (!validators) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    validators = new Map(
      Object.entries(SCHEMA_FILES).map(([t, file]) => [
        t,
        ajv.compile(
          withoutIds(
            JSON.parse(fs.readFileSync(path.join(SERVER_ROOT, 'src/integrations/amazon/models', file), 'utf8')),
          ) as object,
        ),
      ]),
    );
  }
  return validators.get(type) ?? null;
};

export const isNotificationType = (type: unknown): type is AmazonNotificationType =>
  typeof type === 'string' && type in SCHEMA_FILES;

/** An SQS message's body read as a notification, or what is wrong with it in words. */
export function readNotification(body: string): { notification: AmazonNotification } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { problem: 'the message body is not JSON' };
  }
  const type = (json as { NotificationType?: unknown } | null)?.NotificationType;
  if (!isNotificationType(type)) return { problem: `notification type ${String(type)} is not one Podforge reads` };
  const validate = validatorOf(type);
  if (validate && !validate(json)) return { problem: describe(validate.errors, type) };
  return { notification: json as AmazonNotification };
}
