import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP stand-in for the few Stripe API endpoints the server calls, so the real `stripe` SDK
 * can be tested offline. Payment method ids choose the card's behaviour by prefix, like Stripe's test
 * ids: `pm_card_visa…` succeeds, `pm_card_chargeDeclined…` is refused when attached,
 * `pm_card_chargeCustomerFail…` attaches but its charges are declined.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
}

const CARDS: { prefix: string; brand: string; last4: string; attach: boolean; charge: boolean }[] = [
  { prefix: 'pm_card_chargeDeclined', brand: 'visa', last4: '0002', attach: false, charge: false },
  { prefix: 'pm_card_chargeCustomerFail', brand: 'visa', last4: '0341', attach: true, charge: false },
  { prefix: 'pm_card_mastercard', brand: 'mastercard', last4: '4444', attach: true, charge: true },
  { prefix: 'pm_card_visa', brand: 'visa', last4: '4242', attach: true, charge: true },
];

const DECLINE = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' };

export async function startStripeStandIn() {
  const requests: RecordedRequest[] = [];
  const failing = new Set<string>();
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_standin${(counter += 1)}`;
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  function paymentMethod(id: string, customer: string | null) {
    const card = CARDS.find((entry) => id.startsWith(entry.prefix));
    if (!card) return undefined;
    return {
      card,
      body: {
        id,
        object: 'payment_method',
        type: 'card',
        customer,
        card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034 },
      },
    };
  }

  function send(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
    response.end(JSON.stringify(body));
  }

  function route(method: string, path: string, params: Record<string, string>): [number, unknown] {
    const failure = [...failing].find((prefix) => path.startsWith(prefix));
    if (failure) return [500, { error: { type: 'api_error', message: 'Stand-in outage' } }];
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      return [200, { id: nextId('cus'), object: 'customer', email: params.email }];
    }
    if ((match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      if (method === 'DELETE') return [200, { id: match[1], object: 'customer', deleted: true }];
      return [200, { id: match[1], object: 'customer' }];
    }
    if ((match = /^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/.exec(path))) {
      const found = paymentMethod(match[1]!, match[2] === 'attach' ? (params.customer ?? null) : null);
      if (!found) {
        return [
          404,
          { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such PaymentMethod' } },
        ];
      }
      if (match[2] === 'attach' && !found.card.attach) {
        return [402, { error: { ...DECLINE, message: 'Your card was declined.' } }];
      }
      return [200, found.body];
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = nextId('pi');
      const intent = {
        id,
        object: 'payment_intent',
        amount: Number(params.amount),
        currency: params.currency,
        customer: params.customer,
        created: nowSeconds(),
        client_secret: `${id}_secret_standin`,
        metadata: {},
        last_payment_error: null,
        status: 'requires_payment_method',
      };
      if (params.confirm !== 'true') return [200, intent];
      const found = paymentMethod(params.payment_method ?? '', params.customer ?? null);
      if (found?.card.charge) return [200, { ...intent, status: 'succeeded' }];
      const message = 'Your card was declined.';
      return [402, { error: { ...DECLINE, message, payment_intent: { ...intent, last_payment_error: { message } } } }];
    }
    if ((match = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) {
      return [200, { id: match[1], object: 'payment_intent', status: 'canceled' }];
    }
    if (method === 'POST' && path === '/v1/products') return [200, { id: nextId('prod'), object: 'product' }];
    if (method === 'POST' && path === '/v1/prices') {
      return [200, { id: nextId('price'), object: 'price', unit_amount: Number(params.unit_amount) }];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unknown route ${method} ${path}` } }];
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const params = Object.fromEntries([...url.searchParams, ...body]);
      const idempotencyKey = request.headers['idempotency-key'];
      const method = request.method ?? 'GET';
      requests.push({
        method,
        path: url.pathname,
        params,
        idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
      });
      const [status, payload] = route(method, url.pathname, params);
      send(response, status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Requests to paths starting with `prefix` answer 500 until `recover`. */
    fail(prefix: string) {
      failing.add(prefix);
    },
    recover() {
      failing.clear();
    },
    find(method: string, path: string | RegExp) {
      return requests.filter(
        (entry) => entry.method === method && (typeof path === 'string' ? entry.path === path : path.test(entry.path)),
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
