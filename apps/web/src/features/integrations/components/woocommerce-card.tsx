import { ZWooConnectBody } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { ShoppingCart } from 'lucide-react';
import { useState } from 'react';
import { usePlatformStores } from '@/api/integrations/get-integrations';
import { Button } from '@/components/ui/button';
import { useConnectWooCommerce } from '../api/stores';
import { ConnectionBadge, IntegrationCard } from './integration-card';
import { errorText, StoreRow } from './store-row';

const FIELD = 'h-10 w-full rounded-md border border-slate-300 px-3 text-sm';

/** A labelled one-line field of the connect form (never autofilled: these are a store's credentials). */
function Field({
  label,
  value,
  onChange,
  type,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'password';
  placeholder?: string;
}) {
  return (
    <label className="block text-sm font-medium">
      {label}
      <input
        className={FIELD}
        type={type}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
      />
    </label>
  );
}

/**
 * WooCommerce: the store's https address and REST keys (Read/Write), checked by the server before saving; optionally
 * a WordPress username and application password, so pictures are uploaded to the store's media library (WooCommerce's
 * keys do not open it) instead of being downloaded from this app, which needs a public https address for that.
 */
function ConnectForm() {
  const connect = useConnectWooCommerce();
  const [storeUrl, setStoreUrl] = useState('');
  const [consumerKey, setKey] = useState('');
  const [consumerSecret, setSecret] = useState('');
  const [wpUsername, setWpUsername] = useState('');
  const [wpAppPassword, setWpAppPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  // The toast is the hook's (useConnectWooCommerce): this form may be gone by the time the answer comes.
  const done = () => {
    setKey('');
    setSecret('');
    setWpAppPassword('');
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = ZWooConnectBody.safeParse({
      storeUrl: storeUrl.trim(),
      consumerKey,
      consumerSecret,
      wpUsername,
      wpAppPassword,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues.find((i) => i.path.length > 0) ?? parsed.error.issues[0];
      setMessage(issue ? `${String(issue.path[0] ?? 'store')}: ${issue.message}` : 'Check the address and keys.');
      return;
    }
    setMessage(null);
    connect.mutate(parsed.data, {
      onSuccess: done,
      onError: (e) => setMessage(errorText(e, 'Could not connect.')),
    });
  };
  return (
    <div className="space-y-3">
      <form className="space-y-2" onSubmit={submit} noValidate aria-label="Connect a WooCommerce store">
        <Field label="Store address" placeholder="https://shop.example.com" value={storeUrl} onChange={setStoreUrl} />
        <Field label="Consumer key" placeholder="ck_..." value={consumerKey} onChange={setKey} />
        <Field
          label="Consumer secret"
          type="password"
          placeholder="cs_..."
          value={consumerSecret}
          onChange={setSecret}
        />
        <fieldset className="space-y-2 rounded-md border border-slate-200 p-2">
          <legend className="px-1 text-xs font-medium text-slate-600">Pictures (optional)</legend>
          <p className="text-xs text-slate-500">
            To upload pictures to the store’s media library, give a WordPress user who can upload files and one of its
            application passwords (Users &gt; Profile &gt; Application Passwords). Without them the store downloads the
            pictures from this app, which then needs a public https address.
          </p>
          <Field label="WordPress username" value={wpUsername} onChange={setWpUsername} />
          <Field
            label="Application password"
            type="password"
            placeholder="xxxx xxxx xxxx xxxx xxxx xxxx"
            value={wpAppPassword}
            onChange={setWpAppPassword}
          />
        </fieldset>
        {message && (
          <p role="alert" className="text-sm text-red-600">
            {message}
          </p>
        )}
        <Button
          type="submit"
          className="w-full"
          disabled={connect.isPending || !storeUrl || !consumerKey || !consumerSecret}
        >
          {connect.isPending ? 'Checking...' : 'Connect'}
        </Button>
      </form>
      <p className="text-xs text-slate-500">
        Keys: WooCommerce &gt; Settings &gt; Advanced &gt; REST API, with Read/Write permission. No store yet?
      </p>
      <Button
        variant="outline"
        className="w-full"
        disabled={connect.isPending}
        onClick={() =>
          connect.mutate(
            { sandbox: true },
            { onSuccess: done, onError: (e) => setMessage(errorText(e, 'Could not connect.')) },
          )
        }
      >
        Use the sandbox store
      </Button>
    </div>
  );
}

export function WooCommerceCard() {
  const { stores, isError } = usePlatformStores('woocommerce');
  const anyConnected = stores.some((s) => s.isConnected);
  return (
    <IntegrationCard
      testId="store-woocommerce"
      icon={ShoppingCart}
      name={platformLabel('woocommerce')}
      description="WordPress e-commerce"
      badge={<ConnectionBadge stores={stores} isError={isError} />}
    >
      <div className="space-y-3">
        {stores.length > 0 && (
          <ul className="space-y-2">
            {stores.map((store) => (
              <StoreRow
                key={store.id}
                store={store}
                platform="woocommerce"
                sandboxPath="/integrations/woocommerce-sandbox"
              />
            ))}
          </ul>
        )}
        {!anyConnected && <ConnectForm />}
      </div>
    </IntegrationCard>
  );
}
