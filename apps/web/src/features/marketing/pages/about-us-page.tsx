import Typography from '@mui/material/Typography';
import { CallToAction, FeatureGrid, Hero, Prose, Section } from '../components/page-sections.js';
import { HorizonIllustration } from '../illustrations/illustrations.js';

const VALUES = [
  {
    title: 'Numbers people can trust',
    text: 'Every figure on a report should be traceable to its source. We design pipelines and reports so that it is.',
  },
  {
    title: 'Software you own',
    text: 'We hand over code, documentation and tests, not a black box. Your team can run and change everything we build.',
  },
  {
    title: 'Scale without drama',
    text: 'We plan for the data you will have next year, so growth is a configuration change rather than a rewrite.',
  },
] as const;

export function AboutUsPage() {
  return (
    <>
      <Hero
        eyebrow="About us"
        title="We turn very large data into reports people trust"
        lead="Data Platform is a small team of engineers and analysts who have spent years moving healthcare, finance and retail reporting from overloaded desktops to fast, shared, web-based tools."
        illustration={<HorizonIllustration title="A winding path over hills toward a rising sun and a growing chart" />}
      />
      <Section title="Our story">
        <Prose>
          <Typography component="p">
            We started as consultants called in when dashboards stopped loading. Again and again the problem was the
            same: data had outgrown the tools around it. Extracts took all night, workbooks were copied by hand from one
            site to another, and nobody could say which number was right.
          </Typography>
          <Typography component="p">
            We fixed those systems one at a time, and wrote down what worked: automated replication for BI sites,
            pipelines that cut billions of rows down to what a question needs, and an application foundation we kept
            rebuilding for every client. Studio is that foundation, made into a product.
          </Typography>
        </Prose>
      </Section>
      <Section title="Our vision">
        <Prose>
          <Typography component="p">
            Reporting should be as easy to change as the business it describes. We see a world where an analyst asks a
            precise question, an AI agent that understands the data drafts the report, and an engineer reviews it like
            any other change, all in the browser, all in one system.
          </Typography>
        </Prose>
      </Section>
      <Section title="Our founder">
        <Prose>
          <Typography component="p">
            Our founder has worked for more than fifteen years at the meeting point of data engineering and business
            intelligence: building warehouses for hospital networks, running BI platforms with thousands of users, and
            leading the price-transparency work that taught the team to handle files measured in terabytes. Before
            founding Data Platform, they led analytics engineering teams and taught SQL and data modelling to hundreds
            of analysts, which is where the idea of a learning platform inside the product came from.
          </Typography>
        </Prose>
      </Section>
      <Section title="Our mission" intro="Give every team a reporting platform that is fast, correct and theirs.">
        <FeatureGrid items={VALUES} />
      </Section>
      <CallToAction
        title="Work with us"
        text="Whether you need Studio, a pipeline or a second opinion on your BI estate, we would like to hear from you."
      />
    </>
  );
}
