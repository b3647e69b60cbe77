import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Screens, toasts and dialogs load on demand (lazy chunks). On a loaded 2-core CI machine the first import of a chunk
// can take longer than Testing Library's 1 s default for `findBy*`/`waitFor`, which made a passing screen fail CI.
// Waiting up to 5 s only slows a test that is failing anyway.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
});
