/** What every screen of the route table receives: its route parameters and its translated title. */
export interface ScreenProps {
  params: Readonly<Record<string, string | undefined>>;
  title: string;
}
