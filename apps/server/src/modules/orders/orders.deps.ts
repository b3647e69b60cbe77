import type { CoreDeps } from '../../lib/core-deps';
import type { AmazonService } from '../amazon/amazon.service';
import type { EtsyService } from '../etsy/etsy.service';
import type { PrintFilesDeps } from '../print-files/print-files.deps';
import type { PrintersDeps } from '../printers/printers.deps';
import type { ShopifyService } from '../shopify/shopify.service';
import type { StoresDeps } from '../stores/stores.deps';
import type { WooCommerceService } from '../woocommerce/woocommerce.service';

/** What the orders module uses: every store's orders and tracking, the printers, print files, the order jobs. */
export type OrdersDeps = PrintFilesDeps &
  PrintersDeps &
  StoresDeps &
  Pick<CoreDeps, 'cipher' | 'jobs'> & {
    shopify: ShopifyService;
    etsy: EtsyService;
    woocommerce: WooCommerceService;
    amazon: AmazonService;
  };
