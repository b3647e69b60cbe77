import type { TBulkItem, TBulkJob, TBulkPricing, TBulkPush, TCatalogProduct, TDesign } from '@podforge/contract';
import { platformLabel, SCHEDULE_PAST_MESSAGE, scheduleIsPast } from '@podforge/contract/plain';
import { useState } from 'react';
import { useDesigns } from '@/api/designs/get-designs';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { ScheduleSwitch } from '@/components/schedules/schedule-switch';
import { ScheduleTimeFields } from '@/components/schedules/schedule-time-fields';
import { StorePicker } from '@/components/stores/store-picker';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { serverReason } from '@/lib/failure-notice';
import { useBlanks, useBulkJob, useRetryBulk, useStartBulk } from '../api/bulk';

type RuleKind = 'markupPercent' | 'marginPercent' | 'fixed';

const RULE_LABELS: Record<RuleKind, string> = {
  markupPercent: 'Markup on cost (%)',
  marginPercent: 'Margin after store fee (%)',
  fixed: 'Fixed price (USD)',
};

const ITEM_STATUS: Record<TBulkItem['status'], string> = {
  pending: 'Waiting',
  running: 'Making',
  done: 'Made',
  failed: 'Failed',
};

const PUSH_STATUS: Record<TBulkPush['status'], string> = {
  pending: 'waiting',
  pushing: 'pushing',
  pushed: 'live',
  scheduled: 'scheduled',
  failed: 'failed',
};

const RUN_STATUS: Record<TBulkJob['status'], string> = { running: 'Working', done: 'Finished', failed: 'Stopped' };

const clock = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

function pricingOf(kind: RuleKind, amount: number): TBulkPricing {
  if (kind === 'fixed') return { fixed: amount };
  return kind === 'markupPercent' ? { markupPercent: amount } : { marginPercent: amount };
}

/**
 * Bulk creation (#32): designs x blanks in one job. The seller picks designs and blanks (and colours, the price
 * rule and the status, and stores to push each product to, now or at a set time), sees how many products that
 * makes, starts the job, and follows each product and its pushes with the time the run should finish; failed
 * products and pushes can be retried.
 */
export function BulkScreen({ now = () => new Date() }: { now?: () => Date }) {
  const designs = useDesigns();
  const blanks = useBlanks();
  const { stores } = useConnectedStores();
  const [storeIds, setStoreIds] = useState<string[]>([]);
  const [scheduling, setScheduling] = useState(false);
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [designIds, setDesignIds] = useState<string[]>([]);
  const [blankIds, setBlankIds] = useState<number[]>([]);
  const [colors, setColors] = useState<string[]>([]);
  const [ruleKind, setRuleKind] = useState<RuleKind>('markupPercent');
  const [amount, setAmount] = useState('50');
  const [status, setStatus] = useState<'draft' | 'ready'>('draft');
  const [jobId, setJobId] = useState<string | null>(null);
  const start = useStartBulk();
  const retry = useRetryBulk();
  const job = useBulkJob(jobId);

  const chosenBlanks = (blanks.data?.items ?? []).filter((b) => blankIds.includes(b.id));
  const colourChoices = [...new Set(chosenBlanks.flatMap((b) => b.colors.map((c) => c.name)))];
  const total = designIds.length * blankIds.length;
  const amountNumber = Number(amount);
  const chosenStores = storeIds.filter((id) => stores.some((s) => s.id === id));
  const schedulePast = scheduling && Boolean(date && time) && scheduleIsPast(new Date(`${date}T${time}`), now());
  const scheduleReady = !scheduling || (chosenStores.length > 0 && Boolean(date && time) && !schedulePast);
  const canStart =
    total > 0 && amount.trim() !== '' && Number.isFinite(amountNumber) && scheduleReady && !start.isPending;

  const designName = new Map((designs.data ?? []).map((d) => [d.id, d.name]));
  const blankName = new Map((blanks.data?.items ?? []).map((b) => [b.id, b.name]));

  const onStart = () => {
    start.mutate(
      {
        designIds,
        catalogProductIds: blankIds,
        ...(colors.length ? { colors: colors.filter((c) => colourChoices.includes(c)) } : {}),
        pricing: pricingOf(ruleKind, amountNumber),
        status,
        ...(chosenStores.length ? { stores: chosenStores } : {}),
        ...(chosenStores.length && scheduling
          ? {
              schedule: {
                scheduledDate: date,
                scheduledTime: time,
                timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
              },
            }
          : {}),
      },
      { onSuccess: (started) => setJobId(started.jobId) },
    );
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Bulk Create</h1>
        <p className="text-sm text-muted-foreground">
          Put many designs on many blanks in one go: each design on each blank becomes one product, with a mockup per
          colour, listing text and prices from your rule.
        </p>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Designs</CardTitle>
            <CardDescription>{designIds.length} chosen</CardDescription>
          </CardHeader>
          <CardContent>
            {designs.isPending ? <p role="status">Loading designs…</p> : null}
            {designs.data?.length === 0 ? <p>Upload a design first.</p> : null}
            <ul className="max-h-72 space-y-1 overflow-auto">
              {(designs.data ?? []).map((d: TDesign) => (
                <li key={d.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={designIds.includes(d.id)}
                      onChange={() => setDesignIds((ids) => toggle(ids, d.id))}
                    />
                    <img src={d.thumbnailUrl} alt="" className="h-8 w-8 rounded object-contain" />
                    {d.name}
                  </label>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Blanks</CardTitle>
            <CardDescription>{blankIds.length} chosen</CardDescription>
          </CardHeader>
          <CardContent>
            {blanks.isPending ? <p role="status">Loading the catalogue…</p> : null}
            <ul className="max-h-72 space-y-1 overflow-auto">
              {(blanks.data?.items ?? []).map((b: TCatalogProduct) => (
                <li key={b.id}>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={blankIds.includes(b.id)}
                      onChange={() => setBlankIds((ids) => toggle(ids, b.id))}
                    />
                    {b.name}
                    <span className="text-muted-foreground">from ${b.basePrice.toFixed(2)}</span>
                  </label>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Stores</CardTitle>
          <CardDescription>
            Optional: each product is pushed to the chosen stores as soon as it is made, one push at a time so each
            store's limits are kept, or scheduled for a date and time.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {stores.length ? (
            <StorePicker stores={stores} selected={chosenStores} onChange={setStoreIds} />
          ) : (
            <p className="text-sm text-muted-foreground">No store is connected; connect one in Integrations.</p>
          )}
          {chosenStores.length ? (
            <ScheduleSwitch checked={scheduling} onChange={setScheduling} label="Schedule the uploads" />
          ) : null}
          {chosenStores.length && scheduling ? (
            <div className="grid gap-3 sm:grid-cols-2">
              <ScheduleTimeFields date={date} time={time} now={now()} onDateChange={setDate} onTimeChange={setTime} />
            </div>
          ) : null}
          {schedulePast ? (
            <p role="alert" className="text-sm text-red-600">
              {SCHEDULE_PAST_MESSAGE}
            </p>
          ) : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Colours, prices and status</CardTitle>
          <CardDescription>
            Without a colour chosen, each blank is made in its first colour. A blank comes only in the chosen colours it
            has.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {colourChoices.length ? (
            <fieldset>
              <legend className="text-sm font-medium">Colours</legend>
              <div className="mt-1 flex flex-wrap gap-3">
                {colourChoices.map((c) => (
                  <label key={c} className="flex items-center gap-1 text-sm">
                    <input
                      type="checkbox"
                      checked={colors.includes(c)}
                      onChange={() => setColors((l) => toggle(l, c))}
                    />
                    {c}
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-3">
            <label className="text-sm">
              Price rule
              <NativeSelect value={ruleKind} onChange={(e) => setRuleKind(e.target.value as RuleKind)}>
                {(Object.keys(RULE_LABELS) as RuleKind[]).map((k) => (
                  <option key={k} value={k}>
                    {RULE_LABELS[k]}
                  </option>
                ))}
              </NativeSelect>
            </label>
            <label className="text-sm">
              {RULE_LABELS[ruleKind]}
              <input
                type="number"
                min={0}
                step="0.01"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
              />
            </label>
            <label className="text-sm">
              Status
              <NativeSelect value={status} onChange={(e) => setStatus(e.target.value as 'draft' | 'ready')}>
                <option value="draft">Draft</option>
                <option value="ready">Ready</option>
              </NativeSelect>
            </label>
          </div>
          <p data-testid="bulk-grid">
            {plural(designIds.length, 'design')} × {plural(blankIds.length, 'blank')} = {plural(total, 'product')}
          </p>
          {start.isError ? (
            <p role="alert" className="text-sm text-red-600">
              {serverReason(start.error) ?? 'The bulk job could not be started; please try again.'}
            </p>
          ) : null}
          <Button type="button" disabled={!canStart} onClick={onStart}>
            {start.isPending ? 'Starting…' : `Create ${plural(total, 'product')}`}
          </Button>
        </CardContent>
      </Card>
      {job.data ? <BulkProgress job={job.data} designName={designName} blankName={blankName} retry={retry} /> : null}
    </div>
  );
}

/** The run as it goes: each product and its pushes, the expected finish, why it stopped, and the retry. */
function BulkProgress({
  job,
  designName,
  blankName,
  retry,
}: {
  job: TBulkJob;
  designName: Map<string, string>;
  blankName: Map<number, string>;
  retry: ReturnType<typeof useRetryBulk>;
}) {
  const failed = job.failures.length + job.pushFailures.length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Progress</CardTitle>
        <CardDescription role="status" data-testid="bulk-progress">
          {RUN_STATUS[job.status]}: {job.done} of {job.total} products made
          {job.failures.length ? `, ${job.failures.length} failed` : ''}
          {job.pushFailures.length
            ? `, ${job.pushFailures.length} ${job.pushFailures.length === 1 ? 'push' : 'pushes'} failed`
            : ''}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {job.expectedFinishAt ? (
          <p className="text-sm" data-testid="bulk-expected-finish">
            Expected to finish around {clock(job.expectedFinishAt)}
          </p>
        ) : null}
        {job.scheduledFor ? (
          <p className="text-sm" data-testid="bulk-scheduled-for">
            Uploads scheduled for {clock(job.scheduledFor)}
          </p>
        ) : null}
        {job.error ? (
          <p role="alert" className="text-sm text-red-600">
            {job.error}
          </p>
        ) : null}
        <ul className="space-y-1" aria-label="Products of this bulk job">
          {job.items.map((item) => (
            <li key={`${item.designId}-${item.catalogProductId}`} className="flex flex-wrap gap-2 text-sm">
              <span>
                {designName.get(item.designId) ?? item.designId} on{' '}
                {blankName.get(item.catalogProductId) ?? `blank ${item.catalogProductId}`}
              </span>
              <span className="font-medium">{ITEM_STATUS[item.status]}</span>
              {item.error ? <span className="text-red-600">{item.error}</span> : null}
              {item.pushes.map((push) => (
                <span key={push.integrationId} className={push.status === 'failed' ? 'text-red-600' : 'text-slate-600'}>
                  {push.storeName ?? platformLabel(push.platform)}: {PUSH_STATUS[push.status]}
                  {push.status === 'scheduled' && push.scheduledFor ? ` for ${clock(push.scheduledFor)}` : ''}
                  {push.error ? ` (${push.error})` : ''}
                </span>
              ))}
            </li>
          ))}
        </ul>
        {job.status !== 'running' && (failed || job.status === 'failed') ? (
          <Button type="button" variant="outline" disabled={retry.isPending} onClick={() => retry.mutate(job.jobId)}>
            {failed ? `Retry ${failed} failed` : 'Retry'}
          </Button>
        ) : null}
        {retry.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {serverReason(retry.error) ?? 'The failed products could not be queued again; please try again.'}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
