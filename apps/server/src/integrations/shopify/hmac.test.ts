import { describe, expect, it } from 'vitest';
import { isValidShopDomain, queryHmac, verifyQueryHmac, verifyWebhookHmac, webhookHmac } from './hmac';

// apis.md A1 (3) and A4: published vectors with the secret 'hush'.
describe('Shopify signatures', () => {
  const params = { code: '0907a61c0c8d55e99db179b68161bc00', shop: 'some-shop.myshopify.com', timestamp: '1337178173' };

  it('computes the query HMAC of the documented examples', () => {
    expect(queryHmac(params, 'hush')).toBe('4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20');
    expect(queryHmac({ ...params, state: '0.6784241404160823', hmac: 'ignored' }, 'hush')).toBe(
      '700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf',
    );
  });

  it('verifies hmac and a timestamp within 90 s', () => {
    const hmac = queryHmac(params, 'hush');
    const at = 1337178173 * 1000;
    expect(verifyQueryHmac({ ...params, hmac }, 'hush', at + 90_000)).toBe(true);
    expect(verifyQueryHmac({ ...params, hmac }, 'hush', at + 91_000)).toBe(false);
    expect(verifyQueryHmac({ ...params, hmac: hmac.replace(/.$/, '0') }, 'hush', at)).toBe(hmac.endsWith('0'));
    expect(verifyQueryHmac({ ...params, hmac }, 'other', at)).toBe(false);
    expect(verifyQueryHmac({ ...params }, 'hush', at)).toBe(false);
  });

  it('signs and verifies webhook bodies (base64)', () => {
    const body = '{"shop_id":954889,"shop_domain":"some-shop.myshopify.com"}';
    expect(webhookHmac(body, 'hush')).toBe('Tr2c7Me17fTQwz4kN7AGPjEn0lRCShuYgLnmDSgxA4k=');
    expect(verifyWebhookHmac(Buffer.from(body), 'Tr2c7Me17fTQwz4kN7AGPjEn0lRCShuYgLnmDSgxA4k=', 'hush')).toBe(true);
    expect(verifyWebhookHmac(Buffer.from(`${body} `), 'Tr2c7Me17fTQwz4kN7AGPjEn0lRCShuYgLnmDSgxA4k=', 'hush')).toBe(
      false,
    );
    expect(verifyWebhookHmac(Buffer.from(body), undefined, 'hush')).toBe(false);
  });

  it('accepts only lowercase *.myshopify.com domains', () => {
    for (const ok of ['a.myshopify.com', 'my-shop-1.myshopify.com']) expect(isValidShopDomain(ok), ok).toBe(true);
    for (const bad of ['A.myshopify.com', '-a.myshopify.com', 'a_b.myshopify.com', 'a.myshopify.com/x', 'a.com', '']) {
      expect(isValidShopDomain(bad), bad).toBe(false);
    }
  });
});
