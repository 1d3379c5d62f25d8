import Typography from '@mui/material/Typography';
import { CallToAction, FeatureGrid, Hero, Prose, Section } from '../components/page-sections.js';
import { PipelineIllustration } from '../illustrations/illustrations.js';

const VOLUMES = [
  {
    title: 'Payers',
    text: 'Every insurer publishes its own machine-readable files, monthly, in its own layout and with its own quirks.',
  },
  {
    title: 'Plans',
    text: 'Each payer offers many plans, and one file can describe hundreds of them at once.',
  },
  {
    title: 'Providers',
    text: 'Negotiated rates are listed per provider group, repeating the same provider across plans and networks millions of times.',
  },
  {
    title: 'CPT codes',
    text: 'Thousands of billing codes multiplied by providers and plans produce tables with billions of rows.',
  },
] as const;

const STRATEGIES = [
  {
    title: 'Stream, never load',
    text: 'Files of hundreds of gigabytes are parsed as streams, so memory stays flat whatever the file size.',
  },
  {
    title: 'Deduplicate references',
    text: 'Provider groups and plans are stored once and referenced by key, which removes most of the repetition.',
  },
  {
    title: 'Filter to what matters',
    text: 'Only the codes, regions and networks you ask about are kept; the rest is summarised, not stored.',
  },
  {
    title: 'Columnar, partitioned output',
    text: 'Results land in compressed columnar files partitioned by payer and month, ready for fast queries and reports.',
  },
] as const;

export function TransparencyPipelinePage() {
  return (
    <>
      <Hero
        eyebrow="Solutions & Services"
        title="A price-transparency data pipeline for healthcare"
        lead="Price-transparency rules made insurers publish their negotiated rates. The files are public, but at terabyte scale they are hard to use. Our pipeline turns them into compact data you can query."
        illustration={
          <PipelineIllustration title="Stacks of large files narrowing through a funnel into one compact table" />
        }
        actions={[{ label: 'Ask about your data', to: '/contact', primary: true }]}
      />
      <Section
        title="Massive data volumes"
        intro="The size comes from multiplication: payers times plans times providers times codes."
      >
        <FeatureGrid items={VOLUMES} columns={2} />
      </Section>
      <Section
        title="Reduction strategies"
        intro="How we get from terabytes of raw files to gigabytes of useful tables."
      >
        <FeatureGrid items={STRATEGIES} columns={2} />
      </Section>
      <Section title="What you get">
        <Prose>
          <Typography component="p">
            A repeatable monthly run that downloads the files you choose, validates them, reduces them with the
            strategies above and publishes tables for analysts and dashboards. Each run keeps a record of which source
            files it read, so every rate can be traced back to the payer that published it.
          </Typography>
        </Prose>
      </Section>
      <CallToAction
        title="Comparing rates across payers?"
        text="Tell us which payers, regions and codes you care about and we will show you what the data can answer."
      />
    </>
  );
}
