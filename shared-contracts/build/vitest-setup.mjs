// Testing Library waits 1 s by default for what a test finds asynchronously; on a busy two-core CI machine a stubbed
// answer can take longer, so every component test waits up to 5 s (a test still fails at once on a wrong value).
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5000 });
