import { Route, Routes } from 'react-router-dom';
import { LogsNotFound } from './LogsNotFound';
import { LogsPage } from './LogsPage';
import { UuidPage } from './UuidPage';

/** The `Logs` page group (admin), mounted by the host at `haraka/logs/*`: the search and `{uuid}`. */
export function LogsRoutes() {
  return (
    <Routes>
      <Route index element={<LogsPage />} />
      <Route path=":uuid" element={<UuidPage />} />
      <Route path="*" element={<LogsNotFound />} />
    </Routes>
  );
}
