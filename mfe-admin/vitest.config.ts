// Component tests in jsdom with the settings every browser package shares.
import { componentTestConfig } from 'shared-contracts/build/vitest';

export default componentTestConfig;
