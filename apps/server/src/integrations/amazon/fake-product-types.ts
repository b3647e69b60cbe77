import { AMAZON_MARKETPLACES } from '@podforge/contract';
import { AMAZON_META_SCHEMA_ID } from './product-type-schema';

/**
 * The product type definitions the fake serves: small, but shaped like Amazon's (JSON Schema 2019-09 under Amazon's
 * meta-schema, `$defs` for the marketplace and language selectors, every attribute an array of objects carrying
 * `value` and `marketplace_id`, conditional requirements as `allOf` of `if/then`). Attribute names and shapes follow
 * apis-next.md H.6; Amazon's real SHIRT has many more attributes, and its exact required set is read from the live
 * definition.
 */

const marketplaceIds = AMAZON_MARKETPLACES.map((m) => m.id);
const languageTags = AMAZON_MARKETPLACES.map((m) => m.languageTag);

const text = (title: string, maxLength: number, extra: Record<string, unknown> = {}) => ({
  title,
  type: 'array',
  minItems: 1,
  ...extra,
  selectors: ['marketplace_id', 'language_tag'],
  items: {
    type: 'object',
    required: ['value', 'language_tag'],
    additionalProperties: false,
    properties: {
      value: { title, type: 'string', minLength: 1, maxLength, maxUtf8ByteLength: maxLength * 4 },
      language_tag: { $ref: '#/$defs/language_tag' },
      marketplace_id: { $ref: '#/$defs/marketplace_id' },
    },
  },
});

const singleValue = (title: string, value: Record<string, unknown>) => ({
  title,
  type: 'array',
  minItems: 1,
  maxItems: 1,
  selectors: ['marketplace_id'],
  items: {
    type: 'object',
    required: ['value'],
    additionalProperties: false,
    properties: { value: { title, ...value }, marketplace_id: { $ref: '#/$defs/marketplace_id' } },
  },
});

const image = (title: string) => ({
  title,
  type: 'array',
  minItems: 1,
  maxItems: 1,
  items: {
    type: 'object',
    required: ['media_location'],
    additionalProperties: false,
    properties: {
      media_location: { title: 'Image URL', type: 'string', format: 'uri', pattern: '^https?://' },
      marketplace_id: { $ref: '#/$defs/marketplace_id' },
    },
  },
});

const contains = (name: string, value: unknown) => ({
  required: [name],
  properties: {
    [name]: { contains: { type: 'object', required: ['value'], properties: { value: { const: value } } } },
  },
});

/** JSON Schema's `if`/`then` (built by name: a literal `then` key reads as a thenable to linters). */
const when = (condition: unknown, required: string[]) => ({ if: condition, ['th' + 'en']: { required } });

const childOfTheme = (themes: string[]) => ({
  allOf: [
    contains('parentage_level', 'child'),
    { properties: { variation_theme: { contains: { properties: { name: { enum: themes } } } } } },
  ],
});

const APPAREL_SIZES = ['x_s', 's', 'm', 'l', 'x_l', 'xx_l', '3x_l', '4x_l', '5x_l'];

type Kind = { displayName: string; themes: string[]; sizeAttribute: 'shirt_size' | 'size' };

const KINDS: Record<string, Kind> = {
  SHIRT: { displayName: 'Shirt', themes: ['COLOR', 'SIZE', 'SIZE/COLOR'], sizeAttribute: 'shirt_size' },
  SWEATSHIRT: { displayName: 'Sweatshirt', themes: ['COLOR', 'SIZE', 'SIZE/COLOR'], sizeAttribute: 'shirt_size' },
  DRINKING_CUP: { displayName: 'Drinking Cup', themes: ['COLOR', 'SIZE', 'SIZE/COLOR'], sizeAttribute: 'size' },
  POSTER: { displayName: 'Poster', themes: ['COLOR', 'SIZE', 'SIZE/COLOR'], sizeAttribute: 'size' },
};

function schemaOf(productType: string, kind: Kind): Record<string, unknown> {
  const sizeSchema =
    kind.sizeAttribute === 'shirt_size'
      ? {
          title: 'Shirt Size',
          type: 'array',
          minItems: 1,
          maxItems: 1,
          items: {
            type: 'object',
            required: ['size_system', 'size_class', 'size'],
            additionalProperties: false,
            properties: {
              size_system: { type: 'string', enum: ['as4'] },
              size_class: { type: 'string', enum: ['alpha'] },
              size: { type: 'string', enum: APPAREL_SIZES },
              body_type: { type: 'string', enum: ['regular', 'big', 'tall'] },
              height_type: { type: 'string', enum: ['regular', 'petite', 'tall'] },
              marketplace_id: { $ref: '#/$defs/marketplace_id' },
            },
          },
        }
      : text('Size', 50);
  const sellable = [
    'condition_type',
    'purchasable_offer',
    'fulfillment_availability',
    'main_product_image_locator',
  ] as const;
  return {
    $schema: AMAZON_META_SCHEMA_ID,
    $id: `https://schemas.amazon.com/selling-partners/definitions/product-types/schema/v1/${productType}`,
    $comment: `Amazon product type definition for ${productType} product type (Podforge's local sandbox)`,
    $defs: {
      marketplace_id: {
        default: 'ATVPDKIKX0DER',
        editable: false,
        hidden: true,
        type: 'string',
        enum: marketplaceIds,
      },
      language_tag: { default: 'en_US', editable: false, hidden: true, type: 'string', enum: languageTags },
    },
    type: 'object',
    required: ['item_name', 'brand', 'product_description', 'bullet_point'],
    properties: {
      item_name: text('Item Name', 200),
      brand: text('Brand Name', 100),
      product_description: text('Product Description', 2000),
      bullet_point: { ...text('Bullet Point', 500), maxItems: 5 },
      generic_keywords: text('Search Terms', 250),
      supplier_declared_has_product_identifier_exemption: singleValue('Product Exemption Reason', { type: 'boolean' }),
      externally_assigned_product_identifier: {
        title: 'External Product ID',
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'value'],
          additionalProperties: false,
          properties: {
            type: { type: 'string', enum: ['ean', 'gtin', 'upc', 'isbn'] },
            value: { type: 'string', pattern: '^[0-9]{8,14}$' },
            marketplace_id: { $ref: '#/$defs/marketplace_id' },
          },
        },
      },
      condition_type: singleValue('Item Condition', { type: 'string', enum: ['new_new'] }),
      color: text('Color', 100),
      [kind.sizeAttribute]: sizeSchema,
      parentage_level: singleValue('Parentage Level', { type: 'string', enum: ['parent', 'child'] }),
      child_parent_sku_relationship: {
        title: 'Child Parent SKU Relationship',
        type: 'array',
        maxItems: 1,
        items: {
          type: 'object',
          required: ['child_relationship_type', 'parent_sku'],
          additionalProperties: false,
          properties: {
            child_relationship_type: { type: 'string', enum: ['variation'] },
            parent_sku: { type: 'string', minLength: 1, maxLength: 40 },
            marketplace_id: { $ref: '#/$defs/marketplace_id' },
          },
        },
      },
      variation_theme: {
        title: 'Variation Theme Name',
        type: 'array',
        maxItems: 1,
        items: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', enum: kind.themes } },
        },
      },
      main_product_image_locator: image('Main Image Location'),
      ...Object.fromEntries(
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`other_product_image_locator_${n}`, image(`Other Image Location ${n}`)]),
      ),
      purchasable_offer: {
        title: 'Purchasable Offer',
        type: 'array',
        maxItems: 1,
        items: {
          type: 'object',
          required: ['currency', 'our_price'],
          additionalProperties: false,
          properties: {
            currency: { type: 'string', enum: ['USD', 'GBP', 'EUR'] },
            our_price: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['schedule'],
                properties: {
                  schedule: {
                    type: 'array',
                    minItems: 1,
                    items: {
                      type: 'object',
                      required: ['value_with_tax'],
                      properties: { value_with_tax: { type: 'number', exclusiveMinimum: 0 } },
                    },
                  },
                },
              },
            },
            marketplace_id: { $ref: '#/$defs/marketplace_id' },
          },
        },
      },
      fulfillment_availability: {
        title: 'Fulfillment Availability',
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['fulfillment_channel_code'],
          additionalProperties: false,
          properties: {
            fulfillment_channel_code: { type: 'string', enum: ['DEFAULT'] },
            quantity: { type: 'integer', minimum: 0 },
            lead_time_to_ship_max_days: { type: 'integer', minimum: 1, maximum: 30 },
          },
        },
      },
    },
    allOf: [
      // A variation parent names its theme and carries no offer; a child names its parent.
      when(contains('parentage_level', 'parent'), ['variation_theme']),
      when(contains('parentage_level', 'child'), ['child_parent_sku_relationship', 'variation_theme']),
      // What a buyer can buy (a child, or an item without variations) has an offer, stock and a picture.
      when({ not: contains('parentage_level', 'parent') }, [...sellable]),
      // A product without a barcode must declare the exemption its brand was granted.
      when(
        {
          not: {
            anyOf: [
              contains('parentage_level', 'parent'),
              contains('supplier_declared_has_product_identifier_exemption', true),
            ],
          },
        },
        ['externally_assigned_product_identifier'],
      ),
      // A child of a colour (size) theme says its colour (size).
      when(childOfTheme(['COLOR', 'SIZE/COLOR']), ['color']),
      when(childOfTheme(['SIZE', 'SIZE/COLOR']), [kind.sizeAttribute]),
    ],
  };
}

export type FakeProductType = {
  productType: string;
  displayName: string;
  version: string;
  schema: Record<string, unknown>;
};

export const FAKE_PRODUCT_TYPES: Record<string, FakeProductType> = Object.fromEntries(
  Object.entries(KINDS).map(([name, kind]) => [
    name,
    {
      productType: name,
      displayName: kind.displayName,
      version: `U${name.length}podforge1=`,
      schema: schemaOf(name, kind),
    },
  ]),
);

/** A small stand-in for Amazon's meta-schema (it names the keywords Amazon adds to 2019-09). */
export const FAKE_META_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2019-09/schema',
  $id: AMAZON_META_SCHEMA_ID,
  $comment:
    'Keywords Amazon adds: editable, hidden, enumNames, selectors, minUniqueItems, maxUniqueItems, maxUtf8ByteLength',
  type: ['object', 'boolean'],
};

/** Amazon's property groups for a definition (what the seller-facing forms group attributes by). */
export const PROPERTY_GROUPS = {
  product_identity: {
    title: 'Product Identity',
    propertyNames: [
      'item_name',
      'brand',
      'externally_assigned_product_identifier',
      'supplier_declared_has_product_identifier_exemption',
    ],
  },
  variations: {
    title: 'Variations',
    propertyNames: ['parentage_level', 'child_parent_sku_relationship', 'variation_theme'],
  },
  offer: { title: 'Offer', propertyNames: ['condition_type', 'purchasable_offer', 'fulfillment_availability'] },
  images: { title: 'Images', propertyNames: ['main_product_image_locator'] },
};
