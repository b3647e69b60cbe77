import { Link } from 'react-router';

export function NotFound() {
  return (
    <div className="flex min-h-full flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-slate-500">The page you are looking for does not exist.</p>
      <Link to="/" className="font-medium text-brand-600 hover:underline">
        Back to the dashboard
      </Link>
    </div>
  );
}
