import { BUILT_IN_REPORT_SLUGS } from '@dataplatform/contract';
import { Navigate, Route, Routes } from 'react-router';
import { paths } from '../config/paths.js';
import { AppLayout } from './layout/app-layout.js';
import { RedirectIfAuthenticated, RequireAuth, RequireSuperuser } from './guards.js';
import { lazyPage } from './lazy-page.js';
import { NotFound } from './not-found.js';

// Every page is its own chunk: a marketing page loads only itself, the signed-in areas never load
// with the marketing pages.
const StudioPage = lazyPage(() => import('../features/marketing/pages/studio-page.js').then((m) => m.StudioPage));
const AboutUsPage = lazyPage(() => import('../features/marketing/pages/about-us-page.js').then((m) => m.AboutUsPage));
const DataEngineeringPage = lazyPage(() =>
  import('../features/marketing/pages/data-engineering-page.js').then((m) => m.DataEngineeringPage),
);
const HighScaleTableauPage = lazyPage(() =>
  import('../features/marketing/pages/high-scale-tableau-page.js').then((m) => m.HighScaleTableauPage),
);
const TransparencyPipelinePage = lazyPage(() =>
  import('../features/marketing/pages/transparency-pipeline-page.js').then((m) => m.TransparencyPipelinePage),
);
const ContactPage = lazyPage(() => import('../features/contact/components/contact-page.js').then((m) => m.ContactPage));
const LoginPage = lazyPage(() => import('../features/auth/components/login-page.js').then((m) => m.LoginPage));
const SsoCompletePage = lazyPage(() =>
  import('../features/auth/components/sso-complete-page.js').then((m) => m.SsoCompletePage),
);
const SignupPage = lazyPage(() => import('../features/auth/components/signup-page.js').then((m) => m.SignupPage));
const RecoverPasswordPage = lazyPage(() =>
  import('../features/auth/components/recover-password-page.js').then((m) => m.RecoverPasswordPage),
);
const ResetPasswordPage = lazyPage(() =>
  import('../features/auth/components/reset-password-page.js').then((m) => m.ResetPasswordPage),
);
const VerifyEmailPage = lazyPage(() =>
  import('../features/auth/components/verify-email-page.js').then((m) => m.VerifyEmailPage),
);
const SettingsArea = lazyPage(() => import('../features/settings/settings-area.js').then((m) => m.SettingsArea));
const StudioArea = lazyPage(() => import('../features/studio/studio-area.js').then((m) => m.StudioArea));
const ShowcaseReport = lazyPage(() => import('../features/studio/studio-area.js').then((m) => m.ShowcaseReport));
const AdminArea = lazyPage(() => import('../features/admin/admin-area.js').then((m) => m.AdminArea));

/** The prerendered pages, so boot.tsx can load the current one before hydrating. */
export const PRERENDERED_PAGES: Readonly<Record<string, { preload(): Promise<void> }>> = {
  '/studio': StudioPage,
  '/about-us': AboutUsPage,
  '/data-engineering': DataEngineeringPage,
  '/high-scale-tableau': HighScaleTableauPage,
  '/transparency-pipeline': TransparencyPipelinePage,
  '/contact': ContactPage,
  '/login': LoginPage,
  '/signup': SignupPage,
  '/recover-password': RecoverPasswordPage,
  '/reset-password': ResetPasswordPage,
};

/** The signed-in areas, so boot.tsx can load the current one before hydrating a tab's frame. */
export const AREA_PAGES: Readonly<Record<string, { preload(): Promise<void> }>> = {
  [paths.settings.root]: SettingsArea,
  [paths.admin.root]: AdminArea,
};

/** The route tree (NAV-ROUTES-1 to NAV-ROUTES-4). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RedirectIfAuthenticated />}>
        <Route path="login" element={<LoginPage />} />
        <Route path="login/sso" element={<SsoCompletePage />} />
        <Route path="recover-password" element={<RecoverPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="signup" element={<SignupPage />} />
      </Route>
      {/* Signed in or not: a link from the mail may be opened in either state. */}
      <Route path="verify-email" element={<VerifyEmailPage />} />
      <Route element={<AppLayout />}>
        <Route index element={<Navigate to={paths.studio} replace />} />
        <Route path="studio" element={<StudioPage />} />
        <Route path="about-us" element={<AboutUsPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="data-engineering" element={<DataEngineeringPage />} />
        <Route path="high-scale-tableau" element={<HighScaleTableauPage />} />
        <Route path="transparency-pipeline" element={<TransparencyPipelinePage />} />
        <Route
          path="studio/*"
          element={
            <RequireAuth>
              <StudioArea />
            </RequireAuth>
          }
        />
        {BUILT_IN_REPORT_SLUGS.map((slug) => (
          <Route
            key={slug}
            path={slug}
            element={
              <RequireAuth>
                <ShowcaseReport />
              </RequireAuth>
            }
          />
        ))}
        <Route
          path="settings/*"
          element={
            <RequireAuth>
              <SettingsArea />
            </RequireAuth>
          }
        />
        <Route
          path="admin/*"
          element={
            <RequireSuperuser>
              <AdminArea />
            </RequireSuperuser>
          }
        />
      </Route>
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
