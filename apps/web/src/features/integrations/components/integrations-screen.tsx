import { FulfillmentServices } from './fulfillment-services';
import { StorePlatforms } from './store-platforms';

export function IntegrationsScreen() {
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Store Integrations</h1>
        <p className="text-slate-500">Connect your stores and fulfilment services.</p>
      </div>
      <section aria-labelledby="store-platforms">
        <h2 id="store-platforms" className="text-lg font-semibold">
          Store Platforms
        </h2>
        <StorePlatforms />
      </section>
      <section aria-labelledby="fulfillment-services">
        <h2 id="fulfillment-services" className="text-lg font-semibold">
          Fulfillment Services
        </h2>
        <FulfillmentServices />
      </section>
    </div>
  );
}
