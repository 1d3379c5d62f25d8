import { CallToAction, FeatureGrid, Hero, Section } from '../components/page-sections.js';
import { DataLakeIllustration } from '../illustrations/illustrations.js';

const SERVICES = [
  {
    title: 'Cloud',
    text: 'Architecture and migration on the major clouds: managed PostgreSQL, object storage, serverless jobs and infrastructure as code that your team can read.',
  },
  {
    title: 'Data lakes',
    text: 'Lakes and lakehouses with clear zones from raw to curated, open file formats, a catalogue, and lineage from every report back to its files.',
  },
  {
    title: 'Performance',
    text: 'Profiling of slow queries and pipelines, partitioning, indexing and incremental loads, so that dashboards answer in seconds, not minutes.',
  },
  {
    title: 'Cost',
    text: 'A line-by-line review of storage, compute and licences, with changes that cut spend without cutting what people can see.',
  },
  {
    title: 'Security',
    text: 'Least-privilege access, encryption at rest and in transit, tenant isolation, audit trails, and secrets kept out of code and logs.',
  },
  {
    title: 'Analytics',
    text: 'Metrics defined once and reused everywhere, tested models, and reports built with the people who read them.',
  },
] as const;

const APPROACH = [
  {
    title: '1. Assess',
    text: 'Two weeks with your engineers and analysts to map sources, pipelines, costs and the questions the business actually asks.',
  },
  {
    title: '2. Build',
    text: 'Short iterations that ship working pipelines and reports, each with tests, documentation and a way to roll back.',
  },
  {
    title: '3. Hand over',
    text: 'Pairing and training until your team runs the platform on its own. We stay available, but you should not need us.',
  },
] as const;

export function DataEngineeringPage() {
  return (
    <>
      <Hero
        eyebrow="Solutions & Services"
        title="Data engineering and analytics consulting"
        lead="We design, build and tune the data platforms behind your reports: in the cloud, on data lakes, fast, affordable and secure."
        illustration={<DataLakeIllustration title="A cloud feeding layered data lake storage, guarded by a lock" />}
        actions={[{ label: 'Book a consultation', to: '/contact', primary: true }]}
      />
      <Section title="What we do" intro="Senior engineers who have run these systems in production, not slideware.">
        <FeatureGrid items={SERVICES} />
      </Section>
      <Section title="How we work">
        <FeatureGrid items={APPROACH} />
      </Section>
      <CallToAction
        title="Have a data problem that will not go away?"
        text="Describe it in a few lines and we will tell you honestly whether we can help."
      />
    </>
  );
}
