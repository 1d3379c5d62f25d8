import Typography from '@mui/material/Typography';
import { CallToAction, FeatureGrid, Hero, Prose, Section } from '../components/page-sections.js';
import { ReplicationIllustration } from '../illustrations/illustrations.js';

const CAPABILITIES = [
  {
    title: 'Automated site replication',
    text: 'Workbooks, data sources, permissions and schedules are copied between sites by pipeline, not by hand, so every region and customer sees the same content.',
  },
  {
    title: 'External extract processing',
    text: 'Extract files are built outside the BI server, in parallel, and published when ready. This approach has handled data sources of up to 10GB.',
  },
  {
    title: 'Capacity planning',
    text: 'We measure load, model growth and size the deployment before users notice, with alerting on the signals that matter.',
  },
  {
    title: 'Governance at scale',
    text: 'Certified data sources, naming rules and access groups managed as code, reviewed like any other change.',
  },
] as const;

export function HighScaleTableauPage() {
  return (
    <>
      <Hero
        eyebrow="Solutions & Services"
        title="High-scale Tableau deployments"
        lead="Run BI for thousands of users across many sites without nightly fire drills. We automate replication, move extract work off the server and keep it all observable."
        illustration={<ReplicationIllustration title="A primary BI site replicating its content to two other sites" />}
        actions={[{ label: 'Discuss your deployment', to: '/contact', primary: true }]}
      />
      <Section
        title="Built for large estates"
        intro="What we bring to deployments that have outgrown their first design."
      >
        <FeatureGrid items={CAPABILITIES} columns={2} />
      </Section>
      <Section title="Why extracts break, and how we fix it">
        <Prose>
          <Typography component="p">
            Most BI servers refresh extracts on the same machines that serve dashboards. As data grows, refreshes run
            longer, overlap with working hours and slow everyone down. Uploads from the web tier are also limited in
            size, so large sources have to be split or trimmed.
          </Typography>
          <Typography component="p">
            We build extract files in a separate, scalable pipeline, check them, and publish them to every site that
            needs them. The dashboards stay fast, refreshes stop competing with readers, and data sources of up to 10GB
            become routine.
          </Typography>
        </Prose>
      </Section>
      <CallToAction
        title="Planning a bigger rollout?"
        text="Tell us how many users, sites and gigabytes you expect; we will sketch the deployment with you."
      />
    </>
  );
}
