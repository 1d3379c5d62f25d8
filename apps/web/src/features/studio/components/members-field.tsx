import type { ReportAudience } from '@dataplatform/contract';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

type Member = ReportAudience['members'][number];

/**
 * The "Members" field of the Share dialog's tabs (who sees a report, who a schedule mails): members
 * of the tenant picked by name or email, shown as "Name (email)".
 */
export function MembersField({
  id,
  members,
  chosenIds,
  onChange,
  helperText,
  loading,
}: {
  id: string;
  members: Member[];
  chosenIds: readonly string[];
  onChange: (ids: string[]) => void;
  helperText: string;
  loading?: boolean;
}) {
  return (
    <Autocomplete
      multiple
      options={members}
      {...(loading === undefined ? {} : { loading })}
      value={members.filter((member) => chosenIds.includes(member.id))}
      getOptionLabel={(member) => (member.full_name ? `${member.full_name} (${member.email})` : member.email)}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      onChange={(_event, chosen) => onChange(chosen.map((member) => member.id))}
      renderInput={(params) => <TextField {...params} id={id} label="Members" helperText={helperText} />}
    />
  );
}
