// What the shell and the remotes use of react-router, and nothing else. A shared federation module is built whole
// (rspack 1.x has no shared tree shaking), so sharing the package itself ships all of it (≈ 61 KB gzip) although
// the site uses a dozen exports. The federation preset provides this file under the name `react-router` instead:
// still one router per page (a singleton), built from only what is listed here. A new import from react-router
// anywhere must be added to this list, or the build fails (NarrowSharedCheckPlugin in build/federation.mjs).
export {
  createBrowserRouter,
  Link,
  Outlet,
  redirect,
  RouterProvider,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useRevalidator,
  useRouteError,
  useRouteLoaderData,
  useSearchParams,
} from 'hr-react-router-implementation';
