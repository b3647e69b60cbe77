// Plain values with no zod schema beside them: a browser screen that needs only these does not load zod.

/** My Products' page size, the default of `GET /api/products`' `pageSize`. */
export const PRODUCTS_PAGE_SIZE = 10;
