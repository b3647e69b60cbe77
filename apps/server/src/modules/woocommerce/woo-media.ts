import type { Db } from '../../db/db';
import {
  type WooClient,
  type WooCredentials,
  WooError,
  type WooImageInput,
} from '../../integrations/woocommerce/client';
import type { PushProduct } from '../stores/store-publisher';
import { type MediaMemory, mediaMemory, rememberMedia, replaceMedia } from './woocommerce.repository';

/**
 * How a product's pictures reach a WooCommerce store, in this order:
 * 1. A picture the store already holds (its attachment id remembered per store and mockup in `store_settings`)
 *    goes as `{ id }`: a retry or an update uploads nothing again. With an application password the id is checked
 *    first (`GET /wp/v2/media/{id}`), so one deleted in the media library is uploaded again.
 * 2. With a WordPress application password, the picture is uploaded to the store's media library
 *    (`POST /wp/v2/media`, the PNG as the raw body) and goes as `{ id }`: the app's own URLs need not be public.
 * 3. Else by URL (`{ src }`, signed, on the public https APP_URL), which the store downloads itself; the attachment
 *    ids it answers are remembered for next time.
 * When none is possible the push is refused before anything is sent (`picturesProblem`).
 */

type Picture = PushProduct['images'][number];
/** What went to the store for each picture, to remember the ids its answer gives for URL pictures. */
export type SentPictures = { images: WooImageInput[]; bySrc: (string | null)[] };

export class WooMedia {
  constructor(
    private readonly db: Db,
    private readonly client: () => Promise<WooClient>,
  ) {}

  private async memory(integrationId: string): Promise<MediaMemory> {
    return mediaMemory(this.db, integrationId);
  }

  /** Merges into `data.media` in one statement, so two pushes to one store never lose each other's ids. */
  private async remember(integrationId: string, workspaceId: string, entries: MediaMemory) {
    if (Object.keys(entries).length === 0) return;
    await rememberMedia(this.db, { integrationId, workspaceId }, entries, new Date());
  }

  /** Forgets these pictures' ids (the store refused one as not an image any more). */
  async forget(integrationId: string, mockupIds: string[]) {
    const known = await this.memory(integrationId);
    for (const id of mockupIds) delete known[id];
    await replaceMedia(this.db, integrationId, known);
  }

  /**
   * The `images` entries for a product, in the product's order. `srcFor` signs a picture's URL on the public base
   * (null when there is none: then only remembered or uploaded pictures can go).
   */
  async prepare(
    store: { id: string; workspaceId: string },
    creds: WooCredentials,
    pictures: Picture[],
    srcFor: ((mockupId: string) => string) | null,
    progress?: (message: string) => Promise<void> | void,
  ): Promise<SentPictures> {
    const client = await this.client();
    const known = await this.memory(store.id);
    const images: WooImageInput[] = [];
    const bySrc: (string | null)[] = [];
    const uploaded: MediaMemory = {};
    for (const [index, picture] of pictures.entries()) {
      const remembered = known[picture.mockupId];
      if (remembered !== undefined) {
        const still = creds.wordpress ? await client.getMedia(creds, remembered) : { media_type: 'image' };
        if (still?.media_type === 'image') {
          images.push({ id: remembered });
          bySrc.push(null);
          continue;
        }
      }
      if (creds.wordpress) {
        await progress?.(`Uploading picture ${index + 1} of ${pictures.length} to the store’s media`);
        const bytes = await picture.read();
        if (!bytes) throw new WooError(409, 'A picture of this product is missing from storage; render it again');
        const media = await client.uploadMedia(creds, {
          bytes,
          filename: `podforge-${picture.mockupId}.png`,
          contentType: 'image/png',
        });
        uploaded[picture.mockupId] = media.id;
        // Remembered at once: a push that fails later does not upload this picture again.
        await this.remember(store.id, store.workspaceId, { [picture.mockupId]: media.id });
        images.push({ id: media.id });
        bySrc.push(null);
        continue;
      }
      if (!srcFor) throw new WooError(409, 'The store has no way to get this product’s pictures');
      images.push({ src: srcFor(picture.mockupId) });
      bySrc.push(picture.mockupId);
    }
    return { images, bySrc };
  }

  /** After the store answered: the attachment ids it made from URL pictures, remembered per mockup. */
  async rememberAnswer(
    store: { id: string; workspaceId: string },
    sent: SentPictures,
    answer: { id: number }[],
  ): Promise<void> {
    const entries: MediaMemory = {};
    sent.bySrc.forEach((mockupId, i) => {
      const id = answer[i]?.id;
      if (mockupId && id) entries[mockupId] = id;
    });
    await this.remember(store.id, store.workspaceId, entries);
  }
}

/** WooCommerce refused an `images[].id` as not (or no longer) an image attachment of the store. */
export const isStaleImage = (error: unknown) =>
  error instanceof WooError &&
  (error.code === 'woocommerce_product_invalid_image_id' || error.code === 'woocommerce_variation_invalid_image_id');
