-- Trigram indexes serve the admin user search (ILIKE '%q%', decision 023). pg_trgm is a trusted
-- extension: the owner of the database may create it. PGlite loads it in its client (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
