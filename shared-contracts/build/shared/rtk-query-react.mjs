// What the site uses of @reduxjs/toolkit/query/react, provided under that name (see redux-toolkit.mjs). A new
// runtime import from '@reduxjs/toolkit/query/react' must be added here, or the build fails.
export { createApi, skipToken } from 'hr-rtk-query-react-implementation';
