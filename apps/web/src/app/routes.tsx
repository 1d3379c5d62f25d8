import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AppLayout } from './layout/app-layout.js';
import { RedirectIfAuthenticated, RequireAuth, RequireSuperuser } from './guards.js';
import { NotFound } from './not-found.js';

// Every page is its own chunk: a marketing page loads only itself, the signed-in areas never load
// with the marketing pages.
const StudioPage = lazy(() =>
  import('../features/marketing/pages/studio-page.js').then((m) => ({ default: m.StudioPage })),
);
const AboutUsPage = lazy(() =>
  import('../features/marketing/pages/about-us-page.js').then((m) => ({ default: m.AboutUsPage })),
);
const DataEngineeringPage = lazy(() =>
  import('../features/marketing/pages/data-engineering-page.js').then((m) => ({ default: m.DataEngineeringPage })),
);
const HighScaleTableauPage = lazy(() =>
  import('../features/marketing/pages/high-scale-tableau-page.js').then((m) => ({ default: m.HighScaleTableauPage })),
);
const TransparencyPipelinePage = lazy(() =>
  import('../features/marketing/pages/transparency-pipeline-page.js').then((m) => ({
    default: m.TransparencyPipelinePage,
  })),
);
const ContactPage = lazy(() =>
  import('../features/contact/components/contact-page.js').then((m) => ({ default: m.ContactPage })),
);
const LoginPage = lazy(() =>
  import('../features/auth/components/login-page.js').then((m) => ({ default: m.LoginPage })),
);
const SignupPage = lazy(() =>
  import('../features/auth/components/signup-page.js').then((m) => ({ default: m.SignupPage })),
);
const RecoverPasswordPage = lazy(() =>
  import('../features/auth/components/recover-password-page.js').then((m) => ({ default: m.RecoverPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/components/reset-password-page.js').then((m) => ({ default: m.ResetPasswordPage })),
);
const SettingsArea = lazy(() =>
  import('../features/settings/settings-area.js').then((m) => ({ default: m.SettingsArea })),
);
const AdminArea = lazy(() => import('../features/admin/admin-area.js').then((m) => ({ default: m.AdminArea })));

/** The route tree of SPEC.md section 2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RedirectIfAuthenticated />}>
        <Route path="login" element={<LoginPage />} />
        <Route path="recover-password" element={<RecoverPasswordPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="signup" element={<SignupPage />} />
      </Route>
      <Route element={<AppLayout />}>
        <Route index element={<Navigate to="/studio" replace />} />
        <Route path="studio" element={<StudioPage />} />
        <Route path="about-us" element={<AboutUsPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="data-engineering" element={<DataEngineeringPage />} />
        <Route path="high-scale-tableau" element={<HighScaleTableauPage />} />
        <Route path="transparency-pipeline" element={<TransparencyPipelinePage />} />
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
