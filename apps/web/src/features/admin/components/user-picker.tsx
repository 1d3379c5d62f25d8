import type { UserPublic } from '@dataplatform/contract';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { usersQueryOptions } from '../api/users.js';

/** How many matches the picker offers at once: type more of the address to narrow them. */
const PICKER_LIMIT = 20;
const SEARCH_DELAY_MS = 250;

/**
 * Picks a user by e-mail, searching the server (`GET /users/?q=`) as the person types: never a list
 * of every user.
 */
export function UserPicker({
  value,
  onChange,
  label = 'User',
}: {
  value: UserPublic | null;
  onChange: (user: UserPublic | null) => void;
  label?: string;
}) {
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(input.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [input]);
  // While a user is chosen the input shows its address: search for nothing narrower than that.
  const search = value !== null && q === value.email ? '' : q;
  const users = useQuery(usersQueryOptions({ skip: 0, limit: PICKER_LIMIT, q: search }));
  const options = users.data?.data ?? [];

  return (
    <Autocomplete
      value={value}
      onChange={(_event, user) => onChange(user)}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      options={value !== null && !options.some((user) => user.id === value.id) ? [value, ...options] : options}
      // The server has filtered already.
      filterOptions={(all) => all}
      getOptionLabel={(user) => user.email}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      loading={users.isFetching}
      loadingText="Searching users..."
      noOptionsText={q === '' ? 'No users' : `No users match "${q}"`}
      renderOption={(props, user) => {
        const { key, ...rest } = props;
        return (
          <li key={key} {...rest}>
            {user.email}
            {user.full_name ? ` (${user.full_name})` : ''}
          </li>
        );
      }}
      renderInput={(params) => <TextField {...params} label={label} placeholder="Type an e-mail address or a name" />}
    />
  );
}
